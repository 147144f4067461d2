package dev.jarvis.host;

import static dev.jarvis.host.KitHost.AGENT;
import static dev.jarvis.host.KitHost.AGENT_WORKER;
import static dev.jarvis.host.KitHost.WS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.core.policy.PolicyEvaluation;
import dev.jarvis.model.AgentWorker;
import dev.jarvis.model.AutonomyLevel;
import dev.jarvis.model.PolicyDecisionResult;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/**
 * The rule of the WorkSession's Policy that required a Request's review, evaluated on the host
 * (what the review console shows a human): the Policy's own rule and reason for the declared
 * action, the AgentWorker's autonomy level where it is the stricter, and nothing for a Request the
 * host does not hold.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class RequestPolicyEvaluationTest {

  @Test
  void a_request_for_a_review_required_action_names_the_policy_rule_that_required_it() {
    KitHost kit = KitHost.withSession();
    kit.pendingFetch(WS, "pd-1", "req-1");

    PolicyEvaluation evaluation =
        RequestPolicyEvaluation.of(kit.host).of(WS, "req-1").orElseThrow();

    assertEquals(PolicyDecisionResult.REVIEW_REQUIRED, evaluation.result());
    assertEquals("/review_required_actions/0", evaluation.rule());
    assertEquals(
        "The Policy requires a human's review for fetch_external_source.", evaluation.reason());
  }

  @Test
  void the_agent_workers_stricter_autonomy_level_is_the_rule_when_the_policy_allows_the_action() {
    KitHost kit =
        new KitHost(
            HostAuth.anyCaller(),
            "",
            b ->
                b.agentActions(
                    AgentActions.DEFAULT.withAgentWorker(
                        new AgentWorker()
                            .workerId(AGENT_WORKER)
                            .autonomyLevel(AutonomyLevel.EXECUTE_WITH_REVIEW))));
    kit.createSession(WS);
    kit.decide(WS, "pd-2", "summarize", "review_required", "req-2");
    KitHost.ok(
        kit.scoped(
            "createRequest",
            WS,
            AGENT,
            kit.request(WS, "req-2", "pd-2", "summarize", Duration.ofMinutes(30))));

    PolicyEvaluation evaluation =
        RequestPolicyEvaluation.of(kit.host).of(WS, "req-2").orElseThrow();

    assertEquals(PolicyDecisionResult.REVIEW_REQUIRED, evaluation.result());
    assertEquals("/agent_worker/autonomy_level", evaluation.rule());
    assertTrue(evaluation.matched().contains("/allowed_actions/0"), evaluation.explain());
  }

  @Test
  void a_request_the_host_does_not_hold_has_no_evaluation() {
    KitHost kit = KitHost.withSession();
    kit.pendingFetch(WS, "pd-1", "req-1");
    RequestPolicyEvaluation evaluations = RequestPolicyEvaluation.of(kit.host);

    assertEquals(Optional.empty(), evaluations.of(WS, "req-unknown"));
    assertEquals(Optional.empty(), evaluations.of("ws-unknown", "req-1"));
  }
}
