package dev.jarvis.host.reference;

import dev.jarvis.model.OutcomeReport;
import dev.jarvis.server.generated.api.FeedbackApi;
import jakarta.ws.rs.core.Response;

/** FeedbackApi, answered by the host kit. */
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
