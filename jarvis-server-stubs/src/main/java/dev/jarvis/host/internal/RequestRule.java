package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.hash.ActionHash;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.model.ProtocolErrorId;
import java.util.Optional;
import java.util.Set;

/**
 * createRequest: a Request is created {@code pending} ({@code invalid_request_transition}) for a
 * recorded PolicyDecision ({@code missing_policy_decision}) about the same action ({@code
 * approval_scope_mismatch}); an id is used once and a decision leads to one open Request unless the
 * new one says {@code duplicate_of_request_id} ({@code duplicate_request_mismatch}); the Policy's
 * {@code request_limits} bound open Requests and repeated denials ({@code request_livelock}). The
 * WorkSession then waits on its human.
 */
final class RequestRule implements ScopedRule {

  static final String OBJECT = "request";
  static final Set<String> OPEN = Set.of("pending", "acknowledged");

  @Override
  public Effect apply(ProtocolCall call, SessionView session) {
    JsonNode request = call.body();
    String id = request.path("id").asText();
    if (session.record(RecordKind.REQUEST, id).isPresent()) {
      throw refuse(
          ProtocolErrorId.DUPLICATE_REQUEST_MISMATCH,
          OBJECT,
          "/id",
          "Request " + id + " exists already.");
    }
    if (!"pending".equals(request.path("status").asText())) {
      throw refuse(
          ProtocolErrorId.INVALID_REQUEST_TRANSITION,
          OBJECT,
          "/status",
          "A Request is created pending; a Review or Takeover resolves it.");
    }
    String decisionId = request.path("policy_decision_id").asText();
    JsonNode decision =
        session
            .record(RecordKind.POLICY_DECISION, decisionId)
            .map(StoredRecord::body)
            .orElseThrow(
                () ->
                    refuse(
                        ProtocolErrorId.MISSING_POLICY_DECISION,
                        OBJECT,
                        "/policy_decision_id",
                        "No PolicyDecision " + decisionId + " is recorded in this WorkSession."));
    String hash = ActionHash.of(request.path("requested_action"));
    if (!hash.equals(decision.path("normalized_action_hash").asText())) {
      throw refuse(
          ProtocolErrorId.APPROVAL_SCOPE_MISMATCH,
          OBJECT,
          "/requested_action",
          "requested_action is not the action of PolicyDecision " + decisionId + ".");
    }
    String duplicateOf = request.path("duplicate_of_request_id").asText("");
    int open = 0;
    int denied = 0;
    for (StoredRecord stored : session.records(RecordKind.REQUEST)) {
      JsonNode other = stored.body();
      String status = other.path("status").asText();
      if (OPEN.contains(status)) {
        open++;
        if (decisionId.equals(other.path("policy_decision_id").asText())
            && !duplicateOf.equals(stored.id())) {
          throw refuse(
              ProtocolErrorId.DUPLICATE_REQUEST_MISMATCH,
              OBJECT,
              "/policy_decision_id",
              "Request " + stored.id() + " is open for the same PolicyDecision.");
        }
      }
      if ("denied".equals(status) && hash.equals(ActionHash.of(other.path("requested_action")))) {
        denied++;
      }
    }
    JsonNode limits = session.policy().map(p -> p.path("request_limits")).orElseThrow();
    if (limits.has("max_pending_requests") && open >= limits.path("max_pending_requests").asInt()) {
      throw refuse(
          ProtocolErrorId.REQUEST_LIVELOCK,
          OBJECT,
          "/id",
          open
              + " Requests are open; the Policy allows "
              + limits.path("max_pending_requests")
              + ".");
    }
    if (limits.has("max_repeated_denials")
        && denied >= limits.path("max_repeated_denials").asInt()) {
      throw refuse(
          ProtocolErrorId.REQUEST_LIVELOCK,
          OBJECT,
          "/requested_action",
          "This action was denied " + denied + " times; the Policy allows no further Request.");
    }
    String status = session.session().status();
    return Effect.recording(
        "request.created",
        OBJECT,
        StoredRecord.inSession(RecordKind.REQUEST, id, session.id(), request),
        "active".equals(status) ? Optional.of("waiting_on_human") : Optional.empty(),
        call.rawBody());
  }
}
