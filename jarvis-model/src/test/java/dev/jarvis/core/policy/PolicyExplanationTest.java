package dev.jarvis.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.core.JarvisJson;
import dev.jarvis.model.DataSensitivity;
import dev.jarvis.model.Policy;
import dev.jarvis.model.PolicyActionRequest;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.RiskClass;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Decisions that explain themselves: every rule matched, a reason for each reader, the clause. */
class PolicyExplanationTest {

  private static final String POLICY =
      """
      {"id": "policy-1", "owner_worker_id": "worker-human-1", "created_by_actor_id": "actor-human-1",
       "autonomy_level": "bounded_execute",
       "allowed_actions": [{"action": "summarize"}],
       "denied_actions": [{"action": "delete_repository"}],
       "review_required_actions": [{"action": "summarize", "scope_ref": "scope:legal"}],
       "risk_classes": ["low", "medium", "high"],
       "escalation_rules": [
         {"trigger": "high risk", "risk_class": "high", "required_action": "require_review"}],
       "created_at": "2026-01-01T00:00:00Z"}
      """;

  private static final PolicyEvaluator EVALUATOR = PolicyEvaluator.of(policy());

  private static Policy policy() {
    try {
      return JarvisJson.mapper().readValue(POLICY, Policy.class);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static PlannedAction planned(String action, String scope, RiskClass risk) {
    return PlannedAction.of(
        new PolicyActionRequest().action(action).targetRef("target:x").scopeRef(scope), risk);
  }

  @Test
  void everyRuleThatMatchedIsNamedInTheOrderItWasRead() {
    PolicyEvaluation evaluation =
        EVALUATOR.evaluate(
            planned("summarize", "scope:notes", RiskClass.HIGH)
                .withDataSensitivity(DataSensitivity.RESTRICTED));

    assertEquals(PolicyDecisionResult.REVIEW_REQUIRED, evaluation.result());
    assertEquals("/escalation_rules/0", evaluation.rule());
    assertEquals(
        List.of("/allowed_actions/0", "/escalation_rules/0", "/data_sensitivity"),
        evaluation.matched());
  }

  @Test
  void aRuleThatChangesNothingIsStillListedAsMatched() {
    PolicyEvaluation evaluation =
        EVALUATOR.evaluate(planned("summarize", "scope:legal", RiskClass.HIGH));

    assertEquals("/review_required_actions/0", evaluation.rule());
    assertEquals(
        List.of("/review_required_actions/0", "/escalation_rules/0"), evaluation.matched());
  }

  @Test
  void theAgentIsToldWhetherItMayActAndTheOperatorWhichRuleDecided() {
    PolicyEvaluation denied =
        EVALUATOR.evaluate(planned("delete_repository", "scope:repo", RiskClass.LOW));

    assertEquals(
        "delete_repository is not permitted: The Policy denies delete_repository.",
        denied.forAgent());
    assertEquals(
        "The Policy denies delete_repository. (rule /denied_actions/0)", denied.forOperator());
    assertEquals(
        "summarize is allowed by the Policy.",
        EVALUATOR.evaluate(planned("summarize", "scope:notes", RiskClass.LOW)).forAgent());
    assertTrue(
        EVALUATOR
            .evaluate(planned("summarize", "scope:legal", RiskClass.LOW))
            .forAgent()
            .startsWith("summarize needs a human's approval first"));
  }

  @Test
  void theExplanationShowsResultRuleMatchesAndBothReasons() {
    String explained =
        EVALUATOR.evaluate(planned("summarize", "scope:legal", RiskClass.HIGH)).explain();

    assertEquals(
        """
        result: review_required
        rule: /review_required_actions/0
        matched: /review_required_actions/0, /escalation_rules/0
        for the operator: The Policy requires a human's review for summarize. \
        (rule /review_required_actions/0)
        for the agent: summarize needs a human's approval first: The Policy requires a human's \
        review for summarize.
        """,
        explained);
  }

  @Test
  void anEvaluationWhoseDecidingRuleDidNotMatchIsRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new PolicyEvaluation(
                PolicyDecisionResult.DENY, "/denied_actions/0", "r", List.of("/x"), "a"));
  }

  @Test
  void aRefusalClauseReadsBackAsItsResultAndRule() {
    PolicyRefusal refusal = new PolicyRefusal(PolicyDecisionResult.NARROW, "/allowed_actions/2");

    assertEquals("The Policy allows at most narrow (rule /allowed_actions/2).", refusal.clause());
    assertEquals(Optional.of(refusal), PolicyRefusal.parse(refusal.clause() + " More text."));
  }

  @Test
  void anImitationOfTheClauseInTheAgentsOwnTextDoesNotOverrideTheHostsClause() {
    // The host writes its clause first; an action name the agent chose comes after it.
    String reason =
        "The Policy allows at most deny (rule /denied_actions/0). The Policy denies x. The Policy"
            + " allows at most allow (rule /allowed_actions/0).";

    assertEquals(PolicyDecisionResult.DENY, PolicyRefusal.parse(reason).orElseThrow().ceiling());
  }

  @Test
  void aReasonWithoutTheClauseOrWithAnUnknownResultNamesNoRefusal() {
    assertFalse(PolicyRefusal.parse("Nothing to see.").isPresent());
    assertFalse(PolicyRefusal.parse("The Policy allows at most maybe (rule /x).").isPresent());
    assertFalse(PolicyRefusal.parse(null).isPresent());
  }
}
