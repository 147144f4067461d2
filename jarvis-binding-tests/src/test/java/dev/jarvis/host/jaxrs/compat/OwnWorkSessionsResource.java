package dev.jarvis.host.jaxrs.compat;

import dev.jarvis.host.jaxrs.JarvisHostFeature;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.WorkSession;
import dev.jarvis.server.generated.api.WorkSessionsApi;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.Response;

/**
 * A service team's own resource class on the generated {@code WorkSessionsApi}, as {@code
 * docs/host.md} tells them to write it: every method answered by the binding. It implements the
 * spec's operations only, so it has no {@code event-log} read.
 */
@Path("")
public class OwnWorkSessionsResource implements WorkSessionsApi {

  @Context private ContainerRequestContext request;

  @Override
  public Response appendJarvisEvent(
      String workSessionId,
      String jarvisProtocolVersion,
      String jarvisActorId,
      String jarvisIdempotencyKey,
      String jarvisRequestTimestamp,
      Long jarvisExpectedWorkSessionRevision,
      String jarvisPreviousEventHash,
      JarvisEvent jarvisEvent) {
    return JarvisHostFeature.respond(request);
  }

  @Override
  public Response createWorkSession(
      String jarvisProtocolVersion,
      String jarvisActorId,
      String jarvisIdempotencyKey,
      String jarvisRequestTimestamp,
      Long jarvisExpectedWorkSessionRevision,
      String jarvisPreviousEventHash,
      WorkSession workSession) {
    return JarvisHostFeature.respond(request);
  }

  @Override
  public Response getWorkSession(
      String workSessionId,
      String jarvisProtocolVersion,
      String jarvisActorId,
      String jarvisRequiredCapabilities,
      String jarvisExtensions) {
    return JarvisHostFeature.respond(request);
  }
}
