package dev.jarvis.host.jaxrs.resources;

import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.Request;
import dev.jarvis.model.Review;
import dev.jarvis.model.Takeover;
import dev.jarvis.server.generated.api.ControlPlaneApi;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.Response;

/** ControlPlaneApi, answered by the host kit. */
@Path("")
public class ControlPlaneResource extends ProtocolResource implements ControlPlaneApi {

  @Override
  public Response createRequest(
      String workSessionId,
      String jarvisProtocolVersion,
      String jarvisActorId,
      String jarvisIdempotencyKey,
      String jarvisRequestTimestamp,
      Long jarvisExpectedWorkSessionRevision,
      String jarvisPreviousEventHash,
      Request request) {
    return respond();
  }

  @Override
  public Response recordPolicyDecision(
      String workSessionId,
      String jarvisProtocolVersion,
      String jarvisActorId,
      String jarvisIdempotencyKey,
      String jarvisRequestTimestamp,
      Long jarvisExpectedWorkSessionRevision,
      String jarvisPreviousEventHash,
      PolicyDecision policyDecision) {
    return respond();
  }

  @Override
  public Response recordReview(
      String workSessionId,
      String jarvisProtocolVersion,
      String jarvisActorId,
      String jarvisIdempotencyKey,
      String jarvisRequestTimestamp,
      Long jarvisExpectedWorkSessionRevision,
      String jarvisPreviousEventHash,
      Review review) {
    return respond();
  }

  @Override
  public Response recordTakeover(
      String workSessionId,
      String jarvisProtocolVersion,
      String jarvisActorId,
      String jarvisIdempotencyKey,
      String jarvisRequestTimestamp,
      Long jarvisExpectedWorkSessionRevision,
      String jarvisPreviousEventHash,
      Takeover takeover) {
    return respond();
  }
}
