package dev.jarvis.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jarvis.core.JarvisJson;
import dev.jarvis.model.AgentWorker;
import dev.jarvis.model.AutonomyLevel;
import dev.jarvis.model.DataSensitivity;
import dev.jarvis.model.Policy;
import dev.jarvis.model.PolicyActionRequest;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.RiskClass;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PolicyEvaluatorTest {

  /** A Policy touching every field the evaluator reads. */
  private static final String POLICY =
      """
      {"id": "policy-1", "owner_worker_id": "worker-human-1", "created_by_actor_id": "actor-human-1",
       "autonomy_level": "bounded_execute",
       "allowed_actions": [
         {"action": "summarize"},
         {"action": "write_file", "scope_ref": "scope:workspace"},
         {"action": "run_query", "constraints": [{"kind": "read_only"}]},
         {"action": "call_tool", "grant_refs": ["tool:calculator"]},
         {"action": "escalating"}],
       "denied_actions": [{"action": "delete_repository"},
                          {"action": "write_file", "scope_ref": "scope:secrets"}],
       "review_required_actions": [{"action": "publish_answer"},
                                   {"action": "summarize", "scope_ref": "scope:legal"}],
       "external_send_rules": [{"action": "send_email", "scope_ref": "scope:customers"}],
       "risk_classes": ["low", "medium", "high"],
       "escalation_rules": [
         {"trigger": "high risk", "risk_class": "high", "required_action": "require_review"},
         {"trigger": "escalating", "required_action": "deny_action"}],
       "tool_grants": ["tool:search"], "memory_grants": ["memory:notes"],
       "created_at": "2026-01-01T00:00:00Z"}
      """;

  private static Policy policy(String json) {
    try {
      return JarvisJson.mapper().readValue(json, Policy.class);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static final PolicyEvaluator EVALUATOR = PolicyEvaluator.of(policy(POLICY));

  private static PlannedAction planned(String action, String scope, RiskClass risk) {
    PolicyActionRequest request = new PolicyActionRequest().action(action).targetRef("target:x");
    if (!scope.isEmpty()) {
      request.scopeRef(scope);
    }
    return PlannedAction.of(request, risk);
  }

  @ParameterizedTest(name = "{0} in ''{1}'' at {2} risk is {3} by {4}")
  @CsvSource({
    "summarize,          scope:notes,      low,    allow,           /allowed_actions/0",
    "summarize,          scope:legal,      low,    review_required, /review_required_actions/1",
    "summarize,          ,                 low,    review_required, /review_required_actions/1",
    "summarize,          scope:notes,      high,   review_required, /escalation_rules/0",
    "write_file,         scope:workspace,  low,    allow,           /allowed_actions/1",
    "write_file,         scope:elsewhere,  low,    deny,            /allowed_actions",
    "write_file,         ,                 low,    deny,            /denied_actions/1",
    "write_file,         scope:secrets,    low,    deny,            /denied_actions/1",
    "run_query,          ,                 low,    narrow,          /allowed_actions/2",
    "delete_repository,  ,                 low,    deny,            /denied_actions/0",
    "publish_answer,     ,                 low,    review_required, /review_required_actions/0",
    "send_email,         scope:customers,  low,    review_required, /external_send_rules/0",
    "send_email,         scope:anyone,     low,    deny,            /allowed_actions",
    "escalating,         ,                 low,    deny,            /escalation_rules/1",
    "summarize,          scope:notes,      critical, deny,          /risk_classes",
    "read_source,        ,                 low,    deny,            /allowed_actions",
  })
  void each_rule_of_the_policy_decides_what_it_names(
      String action, String scope, String risk, String result, String rule) {
    PolicyEvaluation evaluation =
        EVALUATOR.evaluate(planned(action, scope == null ? "" : scope, RiskClass.fromValue(risk)));
    assertEquals(PolicyDecisionResult.fromValue(result), evaluation.result(), evaluation.reason());
    assertEquals(rule, evaluation.rule());
  }

  @ParameterizedTest(name = "''{0}'' is not summarize: default deny")
  @ValueSource(
      strings = {
        "SUMMARIZE",
        "Summarize",
        "summarize ",
        " summarize",
        "summ\u200Barize",
        "summ\u0430rize",
        "sum\u200Dmarize",
        "summarize\u0000"
      })
  void an_action_that_only_looks_like_an_allowed_one_is_denied(String lookAlike) {
    PolicyEvaluation evaluation = EVALUATOR.evaluate(planned(lookAlike, "", RiskClass.LOW));
    assertEquals(PolicyDecisionResult.DENY, evaluation.result());
    assertEquals("/allowed_actions", evaluation.rule());
  }

  @ParameterizedTest(name = "an AgentWorker at {0} makes summarize {1}")
  @CsvSource({
    "observe_only,          deny,            /agent_worker/autonomy_level",
    "propose_only,          deny,            /agent_worker/autonomy_level",
    "execute_with_review,   review_required, /agent_worker/autonomy_level",
    "bounded_execute,       allow,           /allowed_actions/0",
    "full_execute_in_scope, allow,           /allowed_actions/0"
  })
  void the_stricter_autonomy_level_of_policy_and_agent_worker_wins(
      String level, String result, String rule) {
    AgentWorker worker = new AgentWorker().autonomyLevel(AutonomyLevel.fromValue(level));
    PolicyEvaluation evaluation =
        EVALUATOR.forAgent(worker).evaluate(planned("summarize", "scope:notes", RiskClass.LOW));
    assertEquals(PolicyDecisionResult.fromValue(result), evaluation.result());
    assertEquals(rule, evaluation.rule());
  }

  @ParameterizedTest(name = "a Policy at {0} makes summarize {1}")
  @CsvSource({
    "observe_only,        deny",
    "propose_only,        deny",
    "execute_with_review, review_required",
    "bounded_execute,     allow"
  })
  void the_policys_own_autonomy_level_bounds_every_action(String level, String result) {
    Policy strict = policy(POLICY.replace("\"bounded_execute\"", "\"" + level + "\""));
    AgentWorker lenient = new AgentWorker().autonomyLevel(AutonomyLevel.FULL_EXECUTE_IN_SCOPE);
    PolicyEvaluation evaluation =
        PolicyEvaluator.of(strict)
            .forAgent(lenient)
            .evaluate(planned("summarize", "scope:notes", RiskClass.LOW));
    assertEquals(PolicyDecisionResult.fromValue(result), evaluation.result());
  }

  @Test
  void a_grant_the_policy_does_not_give_is_denied() {
    PlannedAction search =
        planned("call_tool", "", RiskClass.LOW).withGrants(Set.of("tool:search"));
    PlannedAction calculator =
        planned("call_tool", "", RiskClass.LOW).withGrants(Set.of("tool:calculator"));
    PlannedAction shell = planned("call_tool", "", RiskClass.LOW).withGrants(Set.of("tool:shell"));
    assertEquals(PolicyDecisionResult.ALLOW, EVALUATOR.evaluate(search).result());
    assertEquals(PolicyDecisionResult.ALLOW, EVALUATOR.evaluate(calculator).result());
    PolicyEvaluation denied = EVALUATOR.evaluate(shell);
    assertEquals(PolicyDecisionResult.DENY, denied.result());
    assertEquals("/tool_grants", denied.rule());
  }

  @Test
  void restricted_data_needs_a_human() {
    PlannedAction restricted =
        planned("summarize", "scope:notes", RiskClass.LOW)
            .withDataSensitivity(DataSensitivity.RESTRICTED);
    PlannedAction confidential =
        planned("summarize", "scope:notes", RiskClass.LOW)
            .withDataSensitivity(DataSensitivity.CONFIDENTIAL);
    assertEquals(PolicyDecisionResult.REVIEW_REQUIRED, EVALUATOR.evaluate(restricted).result());
    assertEquals(PolicyDecisionResult.ALLOW, EVALUATOR.evaluate(confidential).result());
  }

  @ParameterizedTest(name = "where the Policy says {0}, a decision of {1} keeps to it: {2}")
  @CsvSource({
    "allow,           allow,           true",
    "allow,           narrow,          true",
    "allow,           review_required, true",
    "allow,           deny,            true",
    "narrow,          allow,           false",
    "narrow,          narrow,          true",
    "review_required, allow,           false",
    "review_required, narrow,          false",
    "review_required, review_required, true",
    "review_required, deny,            true",
    "deny,            review_required, false",
    "deny,            deny,            true"
  })
  void a_decision_may_be_stricter_than_the_policy_never_more_permissive(
      String policy, String decision, boolean admitted) {
    PolicyEvaluation evaluation =
        new PolicyEvaluation(PolicyDecisionResult.fromValue(policy), "/x", "test");
    assertEquals(admitted, evaluation.admits(PolicyDecisionResult.fromValue(decision)));
  }
}
