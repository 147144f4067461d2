package dev.jarvis.host.jaxrs.resources;

import dev.jarvis.model.Contribution;
import dev.jarvis.server.generated.api.AttributionApi;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

/** AttributionApi, answered by the host kit. */
@Path("/work-sessions/{work_session_id}/contributions")
public class AttributionResource extends ProtocolResource implements AttributionApi {

  @Override
  public Response recordContribution(
      String workSessionId,
      String jarvisProtocolVersion,
      String jarvisActorId,
      String jarvisIdempotencyKey,
      String jarvisRequestTimestamp,
      Long jarvisExpectedWorkSessionRevision,
      String jarvisPreviousEventHash,
      Contribution contribution) {
    return respond();
  }
}
