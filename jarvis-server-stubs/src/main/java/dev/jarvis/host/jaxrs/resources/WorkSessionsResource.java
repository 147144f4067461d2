package dev.jarvis.host.jaxrs.resources;

import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.WorkSession;
import dev.jarvis.server.generated.api.WorkSessionsApi;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

/** WorkSessionsApi, answered by the host kit. */
@Path("")
public class WorkSessionsResource extends ProtocolResource implements WorkSessionsApi {

  @Override
  public Response appendJarvisEvent(
      String workSessionId,
      String jarvisProtocolVersion,
      String jarvisActorId,
      String jarvisIdempotencyKey,
      String jarvisRequestTimestamp,
      Integer jarvisExpectedWorkSessionRevision,
      String jarvisPreviousEventHash,
      JarvisEvent jarvisEvent) {
    return respond();
  }

  @Override
  public Response createWorkSession(
      String jarvisProtocolVersion,
      String jarvisActorId,
      String jarvisIdempotencyKey,
      String jarvisRequestTimestamp,
      Integer jarvisExpectedWorkSessionRevision,
      String jarvisPreviousEventHash,
      WorkSession workSession) {
    return respond();
  }

  @Override
  public Response getWorkSession(
      String workSessionId,
      String jarvisProtocolVersion,
      String jarvisActorId,
      String jarvisRequiredCapabilities,
      String jarvisExtensions) {
    return respond();
  }
}
