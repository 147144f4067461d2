package dev.jarvis.host.jaxrs.resources;

import dev.jarvis.model.Actor;
import dev.jarvis.model.Worker;
import dev.jarvis.server.generated.api.WorkersApi;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

/** WorkersApi, answered by the host kit. */
@Path("")
public class WorkersResource extends ProtocolResource implements WorkersApi {

  @Override
  public Response registerActor(
      String actorId,
      String jarvisProtocolVersion,
      String jarvisActorId,
      String jarvisIdempotencyKey,
      String jarvisRequestTimestamp,
      Actor actor) {
    return respond();
  }

  @Override
  public Response registerWorker(
      String workerId,
      String jarvisProtocolVersion,
      String jarvisActorId,
      String jarvisIdempotencyKey,
      String jarvisRequestTimestamp,
      Worker worker) {
    return respond();
  }
}
