package dev.jarvis.host.jaxrs.resources;

import dev.jarvis.host.jaxrs.EventLogApi;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.WorkSession;
import dev.jarvis.server.generated.api.WorkSessionsApi;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

/**
 * WorkSessionsApi and the {@code event-log} read ({@link EventLogApi}, on the path of
 * appendJarvisEvent), answered by the host kit; a host that does not declare {@code event-log}
 * answers that read 405.
 */
@Path("")
public class WorkSessionsResource extends ProtocolResource implements WorkSessionsApi, EventLogApi {

  @Override
  public Response listJarvisEvents(
      String workSessionId,
      String after,
      String limit,
      String jarvisProtocolVersion,
      String jarvisActorId,
      String jarvisRequiredCapabilities,
      String jarvisExtensions) {
    return respond();
  }

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
    return respond();
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
