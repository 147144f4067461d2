package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.hash.ActionHash;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.model.ProtocolErrorId;
import java.util.Optional;

/**
 * recordPolicyDecision: the decision names the WorkSession's Policy ({@code missing_policy}), its
 * {@code normalized_action_hash} is the core {@code ActionHash} of {@code requested_action} ({@code
 * approval_scope_mismatch}), and its result agrees with the Policy: an action the Policy denies
 * cannot be allowed or narrowed ({@code policy_denied}); one it sends to review cannot be allowed
 * ({@code review_required}).
 */
final class PolicyDecisionRule implements ScopedRule {

  static final String OBJECT = "policy_decision";

  @Override
  public Effect apply(ProtocolCall call, SessionView session) {
    JsonNode decision = call.body();
    String id = decision.path("id").asText();
    String policyId = decision.path("policy_id").asText();
    if (!policyId.equals(session.session().snapshot().path("policy_id").asText())) {
      throw refuse(
          ProtocolErrorId.MISSING_POLICY,
          OBJECT,
          "/policy_id",
          "The decision must apply the WorkSession's Policy.");
    }
    JsonNode policy =
        session
            .policy()
            .orElseThrow(
                () ->
                    refuse(
                        ProtocolErrorId.MISSING_POLICY,
                        OBJECT,
                        "/policy_id",
                        "This host holds no Policy " + policyId + " and has no default."));
    String hash = ActionHash.of(decision.path("requested_action"));
    if (!hash.equals(decision.path("normalized_action_hash").asText())) {
      throw refuse(
          ProtocolErrorId.APPROVAL_SCOPE_MISMATCH,
          OBJECT,
          "/normalized_action_hash",
          "normalized_action_hash is not the hash of requested_action, " + hash + ".");
    }
    String action = decision.path("requested_action").path("action").asText();
    String result = decision.path("result").asText();
    boolean lets = result.equals("allow") || result.equals("narrow");
    if (lets && RecordFields.actionNames(policy.path("denied_actions")).contains(action)) {
      throw refuse(
          ProtocolErrorId.POLICY_DENIED,
          OBJECT,
          "/result",
          "The Policy denies " + action + "; the decision cannot " + result + " it.");
    }
    if (result.equals("allow")
        && RecordFields.actionNames(policy.path("review_required_actions")).contains(action)) {
      throw refuse(
          ProtocolErrorId.REVIEW_REQUIRED,
          OBJECT,
          "/result",
          "The Policy requires review for " + action + "; the decision cannot allow it.");
    }
    if (session.record(RecordKind.POLICY_DECISION, id).isPresent()) {
      throw refuse(
          ProtocolErrorId.INVALID_TRANSITION,
          OBJECT,
          "/id",
          "PolicyDecision " + id + " is recorded already; decisions are immutable.");
    }
    return Effect.recording(
        "policy_decision.recorded",
        OBJECT,
        StoredRecord.inSession(RecordKind.POLICY_DECISION, id, session.id(), decision),
        Optional.empty(),
        call.rawBody());
  }
}
