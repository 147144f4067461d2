package dev.jarvis.host;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.policy.PlannedAction;
import dev.jarvis.core.policy.PolicyEvaluation;
import dev.jarvis.core.policy.PolicyEvaluator;
import dev.jarvis.model.Actor;
import dev.jarvis.model.AgentWorker;
import dev.jarvis.model.Policy;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.Request;
import dev.jarvis.model.WorkSession;
import java.util.Objects;
import java.util.Optional;

/**
 * The WorkSession's Policy evaluated, on the host, for the action a Request waits on: which rule of
 * the Policy required a human's review and why ({@link PolicyEvaluation#rule()}, {@link
 * PolicyEvaluation#reason()}). What a reviewer needs to see and the protocol has no read for: a
 * Request carries the agent's own {@code policy_refs} and reason, and the host holds the Policy.
 *
 * <p>Evaluated as the host held the decision to it when it was recorded ({@code
 * PolicyDecisionRule}): the PolicyDecision's declared action, risk class, data sensitivity and
 * grants, the Policy the WorkSession names (or the host's default), with the autonomy level of the
 * AgentWorker of the Actor that recorded the decision, where the host knows one. It reads the
 * Policy as it is now, so a Policy changed since shows its current rule.
 *
 * <p>It reads the store and answers for any Request id: a caller first makes sure the human may see
 * that Request (the review console asks only for Requests the host has just listed to that human).
 */
public final class RequestPolicyEvaluation {

  private final HostStores stores;
  private final Optional<JsonNode> defaultPolicy;
  private final AgentActions agents;

  /**
   * @param stores where the Request, its PolicyDecision, the WorkSession and the Policy are read
   * @param defaultPolicy the Policy of a WorkSession whose {@code policy_id} the host does not hold
   * @param agents the AgentWorkers the host knows, whose autonomy level applies with the Policy's
   */
  public RequestPolicyEvaluation(
      HostStores stores, Optional<JsonNode> defaultPolicy, AgentActions agents) {
    this.stores = Objects.requireNonNull(stores, "stores");
    this.defaultPolicy = Objects.requireNonNull(defaultPolicy, "defaultPolicy");
    this.agents = Objects.requireNonNull(agents, "agents");
  }

  /** Evaluations against what {@code host} holds and is configured with. */
  public static RequestPolicyEvaluation of(ProtocolHost host) {
    HostConfig config = host.config();
    return new RequestPolicyEvaluation(
        config.stores(), config.defaultPolicy(), config.agentActions());
  }

  /**
   * The evaluation of the Request's action under its WorkSession's Policy; empty when the Request,
   * its PolicyDecision, the WorkSession or the Policy is not there (nothing to evaluate), or the
   * stored records no longer read as the spec's.
   */
  public Optional<PolicyEvaluation> of(String workSessionId, String requestId) {
    Objects.requireNonNull(workSessionId, "workSessionId");
    Objects.requireNonNull(requestId, "requestId");
    RecordStore records = stores.records();
    Optional<String> decisionId =
        records
            .find(RecordKind.REQUEST, workSessionId, requestId)
            .map(r -> r.body().path(Request.JSON_PROPERTY_POLICY_DECISION_ID).asText());
    Optional<PolicyDecision> decision =
        decisionId
            .flatMap(id -> records.find(RecordKind.POLICY_DECISION, workSessionId, id))
            .flatMap(r -> bind(r.body(), PolicyDecision.class));
    if (decision.isEmpty()) {
      return Optional.empty();
    }
    Optional<Policy> policy =
        stores
            .sessions()
            .find(workSessionId)
            .map(s -> s.snapshot().path(WorkSession.JSON_PROPERTY_POLICY_ID).asText())
            .flatMap(id -> records.body(RecordKind.POLICY, id))
            .or(() -> defaultPolicy)
            .flatMap(p -> bind(p, Policy.class));
    if (policy.isEmpty()) {
      return Optional.empty();
    }
    PolicyEvaluator evaluator = PolicyEvaluator.of(policy.get());
    Optional<AgentWorker> agent = agentOf(decision.get().getActorId());
    if (agent.isPresent()) {
      evaluator = evaluator.forAgent(agent.get());
    }
    return Optional.of(evaluator.evaluate(PlannedAction.of(decision.get())));
  }

  /** The AgentWorker of the Actor's Worker, where the host knows one. */
  private Optional<AgentWorker> agentOf(String actorId) {
    if (actorId == null) {
      return Optional.empty();
    }
    return stores
        .records()
        .find(RecordKind.ACTOR, actorId)
        .map(a -> a.body().path(Actor.JSON_PROPERTY_WORKER_ID).asText())
        .flatMap(agents::agentWorker);
  }

  /** A stored record as the spec's type; empty if it no longer reads as one. */
  private static <T> Optional<T> bind(JsonNode json, Class<T> type) {
    try {
      return Optional.of(JarvisJson.mapper().treeToValue(json, type));
    } catch (JsonProcessingException | IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
