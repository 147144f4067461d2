package dev.jarvis.host;

import static dev.jarvis.host.KitHost.AGENT;
import static dev.jarvis.host.KitHost.AGENT_WORKER;
import static dev.jarvis.host.KitHost.HUMAN;
import static dev.jarvis.host.KitHost.HUMAN_WORKER;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.hash.ActionHash;
import dev.jarvis.core.policy.PlannedAction;
import dev.jarvis.core.policy.PolicyEvaluation;
import dev.jarvis.core.policy.PolicyEvaluator;
import dev.jarvis.model.Policy;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.samples.SampleRecords;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Drawn Policies and decisions (a fixed seed, so a failure replays): the host accepts a decision
 * exactly when {@link PolicyEvaluator} says the Policy admits its result, and an agent action under
 * an accepted {@code allow} or {@code narrow} decision exactly once.
 */
class PolicyPropertyTest {

  private static final long SEED = 0x5EED_22L;
  private static final int DRAWS = 240;
  private static final int DRAWS_PER_HOST = 24;

  private static final List<String> ACTIONS =
      List.of("summarize", "publish_answer", "fetch", "send_email", "Summarize");
  private static final List<String> SCOPES = List.of("", "scope:a", "scope:b");
  private static final List<String> LEVELS =
      List.of(
          "observe_only",
          "propose_only",
          "execute_with_review",
          "bounded_execute",
          "bounded_execute",
          "bounded_execute",
          "full_execute_in_scope",
          "full_execute_in_scope");
  private static final List<String> RISKS = List.of("low", "medium", "high", "critical");
  private static final List<String> RESULTS = List.of("allow", "narrow", "review_required", "deny");
  private static final List<String> GRANTS = List.of("tool:search", "tool:shell");

  @Test
  void the_host_never_accepts_a_decision_more_permissive_than_the_evaluator_allows() {
    Random random = new Random(SEED);
    KitHost kit = null;
    Map<String, Integer> seen = new java.util.TreeMap<>();
    for (int draw = 0; draw < DRAWS; draw++) {
      if (draw % DRAWS_PER_HOST == 0) {
        kit = new KitHost();
      }
      ObjectNode policy = policy(random, "policy-drawn-" + draw, kit.now());
      kit.host.seedPolicy(policy);
      String ws = "ws-drawn-" + draw;
      KitHost.ok(
          kit.send(
              "createWorkSession",
              Map.of(),
              HUMAN,
              SampleRecords.workSession(
                  ws, HUMAN, HUMAN_WORKER, AGENT_WORKER, policy.path("id").asText(), kit.now()),
              ""));
      ObjectNode decision = decision(random, kit, ws, policy.path("id").asText());
      PolicyEvaluation expected =
          PolicyEvaluator.of(JarvisJson.mapper().convertValue(policy, Policy.class))
              .evaluate(
                  PlannedAction.of(
                      JarvisJson.mapper().convertValue(decision, PolicyDecision.class)));
      PolicyDecisionResult result =
          PolicyDecisionResult.fromValue(decision.path("result").asText());
      KitHost.Answer answer = kit.scoped("recordPolicyDecision", ws, AGENT, decision);
      String context = "draw " + draw + ": " + policy + "\n" + decision + "\n" + answer.body();
      assertEquals(expected.admits(result), answer.status() == 201, context);
      seen.merge(
          expected.result().getValue() + (answer.status() == 201 ? "+" : "-"), 1, Integer::sum);
      if (answer.status() == 201
          && (result == PolicyDecisionResult.ALLOW || result == PolicyDecisionResult.NARROW)) {
        String action = decision.path("requested_action").path("action").asText();
        String id = decision.path("id").asText();
        assertEquals(
            201,
            kit.append(ws, AGENT, "evt-a", "agent.acted", KitHost.citing(action, id)).status(),
            context);
        assertEquals(
            "missing_policy_decision",
            kit.append(ws, AGENT, "evt-b", "agent.acted", KitHost.citing(action, id)).errorId(),
            context);
      }
    }
    // The draws reach every kind of evaluation, and both answers where the result can go either
    // way (where the Policy allows, every decision keeps to it).
    assertEquals(
        true,
        seen.keySet()
            .containsAll(
                List.of(
                    "allow+", "narrow+", "deny+", "deny-", "review_required+", "review_required-")),
        seen.toString());
  }

  private static ObjectNode policy(Random random, String id, String now) {
    ObjectNode p = JarvisJson.mapper().createObjectNode();
    p.put("id", id);
    p.put("owner_worker_id", HUMAN_WORKER);
    p.put("created_by_actor_id", HUMAN);
    p.put("autonomy_level", LEVELS.get(random.nextInt(LEVELS.size())));
    for (String list :
        List.of(
            "allowed_actions",
            "denied_actions",
            "review_required_actions",
            "external_send_rules")) {
      ArrayNode rules = p.putArray(list);
      int n = random.nextInt(3) + (list.equals("allowed_actions") ? 2 : 0);
      for (int i = 0; i < n; i++) {
        ObjectNode rule = rules.addObject();
        rule.put("action", pick(random, ACTIONS));
        String scope = pick(random, SCOPES);
        if (!scope.isEmpty()) {
          rule.put("scope_ref", scope);
        }
        if (random.nextInt(4) == 0) {
          rule.putArray("constraints").addObject().put("kind", "read_only");
        }
      }
    }
    ArrayNode risks = p.putArray("risk_classes");
    for (String risk : RISKS) {
      if (risk.equals("low") || risk.equals("medium") || random.nextBoolean()) {
        risks.add(risk);
      }
    }
    ArrayNode escalations = p.putArray("escalation_rules");
    if (random.nextInt(3) == 0) {
      ObjectNode rule = escalations.addObject();
      rule.put("trigger", pick(random, ACTIONS));
      if (random.nextBoolean()) {
        rule.put("risk_class", pick(random, RISKS));
      }
      rule.put(
          "required_action",
          pick(
              random,
              List.of("create_request", "require_review", "start_takeover", "deny_action")));
    }
    p.putArray("tool_grants").add("tool:search");
    p.put("created_at", now);
    return p;
  }

  private static ObjectNode decision(Random random, KitHost kit, String ws, String policyId) {
    String result = pick(random, RESULTS);
    ObjectNode d = SampleRecords.policyDecision("pd-" + ws, ws, AGENT, policyId, kit.now());
    ObjectNode action = JarvisJson.mapper().createObjectNode();
    action.put("action", pick(random, ACTIONS));
    action.put("target_ref", "target:drawn");
    String scope = pick(random, SCOPES);
    if (!scope.isEmpty()) {
      action.put("scope_ref", scope);
    }
    d.set("requested_action", action);
    d.put("normalized_action_hash", ActionHash.of(action));
    d.put("risk_class", pick(random, random.nextBoolean() ? List.of("low", "medium") : RISKS));
    d.put("result", result);
    if (random.nextInt(3) == 0) {
      d.putArray("selected_grant_refs").add(pick(random, GRANTS));
    }
    if (result.equals("deny") || result.equals("review_required")) {
      d.put("request_id", "req-" + ws);
    }
    return d;
  }

  private static String pick(Random random, List<String> from) {
    return from.get(random.nextInt(from.size()));
  }
}
