package dev.jarvis.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.policy.PlannedAction;
import dev.jarvis.core.policy.PolicyEvaluator;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.model.PolicyActionRequest;
import dev.jarvis.model.RiskClass;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The sample Policy is a Policy the spec accepts, and it rules as its description says. */
class SamplePolicyTest {

  @Test
  void theSamplePolicyIsARecordTheSpecAccepts() {
    JsonNode json = JarvisJson.mapper().valueToTree(SampleRecords.policyRecord());

    assertEquals(List.of(), PayloadValidator.forSpec().validate("Policy", json), json::toString);
    assertEquals(SampleRecords.POLICY_ID, SampleRecords.policyRecord().getId());
    assertEquals(json, SampleRecords.policy());
  }

  @Test
  void theSamplePolicyAllowsSummariesAndReviewsFetches() {
    PolicyEvaluator evaluator = PolicyEvaluator.of(SampleRecords.policyRecord());

    assertTrue(
        evaluator.evaluate(planned("summarize", "scope:notes", RiskClass.LOW)).letsAgentAct());
    assertFalse(
        evaluator.evaluate(planned("fetch_external_source", "", RiskClass.LOW)).letsAgentAct());
  }

  private static PlannedAction planned(String action, String scope, RiskClass risk) {
    PolicyActionRequest request = new PolicyActionRequest().action(action).targetRef("target:x");
    if (!scope.isEmpty()) {
      request.scopeRef(scope);
    }
    return PlannedAction.of(request, risk);
  }
}
