package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.ID_TAKEN;
import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.hash.ActionHash;
import dev.jarvis.core.policy.PlannedAction;
import dev.jarvis.core.policy.PolicyEvaluation;
import dev.jarvis.core.policy.PolicyEvaluator;
import dev.jarvis.core.policy.PolicyRefusal;
import dev.jarvis.host.AgentActions;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.WorkSessionGovernance;
import dev.jarvis.model.Policy;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.WorkSession;
import java.util.Optional;

/**
 * recordPolicyDecision: the decision names the WorkSession's Policy, which still governs the
 * WorkSession's human Worker ({@link GenesisRules}; else {@code missing_policy}), its {@code
 * normalized_action_hash} is the core {@code ActionHash} of {@code requested_action} ({@code
 * approval_scope_mismatch}), and it is held to the Policy as {@link PolicyEvaluator} reads it: a
 * decision may be as strict as the Policy or stricter, never more permissive. Where the Policy says
 * {@code deny}, a decision that does not deny is {@code policy_denied}; where it says {@code
 * review_required}, an {@code allow} or {@code narrow} is {@code review_required} (a narrowing of a
 * reviewed action comes from a human's Review, never from a decision); where it says {@code
 * narrow}, an {@code allow} is {@code policy_denied}.
 */
final class PolicyDecisionRule implements ScopedRule {

  static final String OBJECT = "policy_decision";

  private final AgentActions agents;
  private final WorkSessionGovernance governance;

  PolicyDecisionRule(AgentActions agents, WorkSessionGovernance governance) {
    this.agents = agents;
    this.governance = governance;
  }

  @Override
  public Effect apply(ProtocolCall call, SessionView session) {
    JsonNode body = call.body();
    String id = body.path(PolicyDecision.JSON_PROPERTY_ID).asText();
    String policyId = body.path(PolicyDecision.JSON_PROPERTY_POLICY_ID).asText();
    if (!policyId.equals(
        session.session().snapshot().path(WorkSession.JSON_PROPERTY_POLICY_ID).asText())) {
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
    // Bound at genesis, and held again here: an operator who withdraws an assignment withdraws it
    // from open WorkSessions too, rather than leave them judged by a Policy that no longer governs.
    String human =
        session.session().snapshot().path(WorkSession.JSON_PROPERTY_HUMAN_WORKER_ID).asText();
    if (!GenesisRules.governs(governance, policy, human)) {
      throw refuse(
          ProtocolErrorId.MISSING_POLICY,
          OBJECT,
          "/policy_id",
          "The Policy " + policyId + " no longer governs this WorkSession's human Worker.");
    }
    String hash = ActionHash.of(body.path(PolicyDecision.JSON_PROPERTY_REQUESTED_ACTION));
    if (!hash.equals(body.path(PolicyDecision.JSON_PROPERTY_NORMALIZED_ACTION_HASH).asText())) {
      throw refuse(
          ProtocolErrorId.APPROVAL_SCOPE_MISMATCH,
          OBJECT,
          "/normalized_action_hash",
          "normalized_action_hash is not the hash of requested_action, " + hash + ".",
          "Set normalized_action_hash to the action hash of requested_action (the protocol's"
              + " hash of its canonical form), as the reason gives it.");
    }
    PolicyDecision decision = bind(body, PolicyDecision.class);
    PolicyEvaluator evaluator = PolicyEvaluator.of(bind(policy, Policy.class));
    Optional<dev.jarvis.model.AgentWorker> agent =
        session.workerOf(call.actorId()).flatMap(agents::agentWorker);
    if (agent.isPresent()) {
      evaluator = evaluator.forAgent(agent.get());
    }
    PolicyEvaluation evaluation = evaluator.evaluate(PlannedAction.of(decision));
    if (!evaluation.admits(decision.getResult())) {
      throw tooPermissive(decision, evaluation);
    }
    if (session.record(RecordKind.POLICY_DECISION, id).isPresent()) {
      throw refuse(
          ProtocolErrorId.INVALID_TRANSITION,
          OBJECT,
          "/id",
          "PolicyDecision " + id + " is recorded already; decisions are immutable.",
          ID_TAKEN);
    }
    return Effect.recording(
        "policy_decision.recorded",
        OBJECT,
        StoredRecord.inSession(RecordKind.POLICY_DECISION, id, session.id(), body),
        Optional.empty(),
        call.rawBody());
  }

  private static RuntimeException tooPermissive(
      PolicyDecision decision, PolicyEvaluation evaluation) {
    String said = decision.getResult().getValue();
    // The clause first, before any text the agent wrote (the action's name), so a client that
    // reads the clause (PolicyRefusal.parse) reads the host's and no imitation of it.
    String reason =
        PolicyRefusal.of(evaluation).clause()
            + " "
            + evaluation.reason()
            + " The decision cannot "
            + said
            + " it.";
    ProtocolErrorId id =
        evaluation.result() == PolicyDecisionResult.REVIEW_REQUIRED
            ? ProtocolErrorId.REVIEW_REQUIRED
            : ProtocolErrorId.POLICY_DENIED;
    return refuse(id, OBJECT, "/result", reason);
  }

  /** A record the validator accepted, as its generated type. */
  private static <T> T bind(JsonNode json, Class<T> type) {
    try {
      return JarvisJson.mapper().treeToValue(json, type);
    } catch (JsonProcessingException e) {
      // The body passed the spec's schema before any rule ran; a held Policy was checked on load.
      throw new IllegalStateException("a validated " + type.getSimpleName() + " did not bind", e);
    }
  }
}
