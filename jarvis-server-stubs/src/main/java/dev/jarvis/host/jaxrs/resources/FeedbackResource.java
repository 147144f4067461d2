package dev.jarvis.host.jaxrs.resources;

import dev.jarvis.model.OutcomeReport;
import dev.jarvis.server.generated.api.FeedbackApi;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

/** FeedbackApi, answered by the host kit. */
@Path("/outcome-reports")
public class FeedbackResource extends ProtocolResource implements FeedbackApi {

  @Override
  public Response submitOutcomeReport(
      String jarvisProtocolVersion,
      String jarvisActorId,
      String jarvisIdempotencyKey,
      String jarvisRequestTimestamp,
      OutcomeReport outcomeReport) {
    return respond();
  }
}
