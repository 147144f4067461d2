package dev.jarvis.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.RiskClass;
import dev.jarvis.samples.SampleRecords;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The suite takes the actions it sends from the Policy the host holds, as the host's own policy
 * engine reads it, and says why where the Policy offers no action of a kind.
 */
class PolicyActionsTest {

  private final PolicyActions sample = PolicyActions.of(SampleRecords.policyRecord());
  private final PolicyActions sources = PolicyActions.of(Policies.read(Policies.SOURCE_COLLECTION));
  private final PolicyActions reviewed =
      PolicyActions.of(Policies.read(Policies.EVERYTHING_REVIEWED));

  @Test
  void fromTheSamplePolicyTheSuiteTakesTheActionsItAlwaysSent() {
    assertEquals("summarize", sample.permitted().name());
    assertEquals(PolicyDecisionResult.ALLOW, sample.permitted().result());
    assertEquals(RiskClass.LOW, sample.permitted().risk());
    assertEquals("fetch_external_source", sample.reviewed().name());
    assertEquals("delete_repository", sample.denied().name());
    assertEquals("SUMMARIZE", sample.unnamed().name());
    assertEquals(PolicyDecisionResult.DENY, sample.unnamed().result());
    assertEquals(RiskClass.HIGH, sample.escalation().escalated().risk());
    assertEquals("/escalation_rules/0", sample.escalation().escalated().evaluation().get().rule());
  }

  @Test
  void anActionAllowedInOneScopeIsSentInThatScope() {
    PolicyActions.Action permitted = sources.permitted();
    assertEquals("fetch_external_source", permitted.name());
    assertEquals(Optional.of("scope:source-collection"), permitted.scopeRef());
    assertEquals("scope:source-collection", permitted.request().getScopeRef());
    assertEquals(PolicyDecisionResult.ALLOW, permitted.result());
    assertEquals(
        "fetch_external_source in scope:source-collection at low risk (allow by"
            + " /allowed_actions/0)",
        permitted.describe());
    assertEquals("publish_answer", sources.reviewed().name());
    assertEquals("FETCH_EXTERNAL_SOURCE", sources.unnamed().name());
  }

  @Test
  void aPolicyWithoutDenialsOrEscalationsSkipsTheirChecksSayingWhy() {
    CheckSkipped denied = assertThrows(CheckSkipped.class, sources::denied);
    assertTrue(denied.getMessage().contains("denies no action by a rule"), denied.getMessage());
    CheckSkipped escalation = assertThrows(CheckSkipped.class, sources::escalation);
    assertTrue(
        escalation.getMessage().startsWith("Policy policy-source-collection has no escalation"),
        escalation.getMessage());
  }

  @Test
  void underExecuteWithReviewNothingIsAllowedAndTheAllowedActionsNeedReview() {
    CheckSkipped none = assertThrows(CheckSkipped.class, reviewed::permitted);
    assertTrue(none.getMessage().contains("execute_with_review"), none.getMessage());
    assertEquals("summarize", reviewed.reviewed().name());
    assertEquals("/autonomy_level", reviewed.reviewed().evaluation().get().rule());
    assertEquals("summarize", reviewed.notDenied().name());
    assertEquals("delete_repository", reviewed.denied().name());
  }

  @Test
  void aPolicyKnownByItsIdAloneOffersOnlyAnActionNoPolicyNames() {
    PolicyActions unknown = PolicyActions.unknown("policy-of-the-host");
    assertEquals(PolicyActions.UNNAMED, unknown.unnamed().name());
    assertEquals(PolicyDecisionResult.DENY, unknown.unnamed().result());
    CheckSkipped skipped = assertThrows(CheckSkipped.class, unknown::permitted);
    assertTrue(skipped.getMessage().contains("--policy-file"), skipped.getMessage());
    assertThrows(CheckSkipped.class, unknown::notDenied);
  }
}
