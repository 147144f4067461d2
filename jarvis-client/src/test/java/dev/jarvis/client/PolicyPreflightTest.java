package dev.jarvis.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.policy.PlannedAction;
import dev.jarvis.core.policy.PolicyAssignments;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.model.Policy;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.RiskClass;
import dev.jarvis.model.WorkSession;
import dev.jarvis.samples.SampleRecords;
import java.net.URI;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/**
 * The client's pre-flight binds a Policy to a WorkSession by the host's rule (#37): a Policy that
 * does not govern the WorkSession's human is {@code deny} before anything is sent; one that does is
 * judged by the one engine.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class PolicyPreflightTest {

  private final JarvisClient client =
      JarvisClient.create(
          JarvisClientOptions.builder()
              .baseUri(URI.create("http://127.0.0.1:9/"))
              .hostAuth("Bearer unused")
              .actorId("actor-agent-1")
              .build());

  private static WorkSession session(String human, String policyId) {
    return JarvisJson.mapper()
        .convertValue(
            SampleRecords.workSession(
                "ws-1", "actor-human-1", human, "worker-agent-1", policyId, "2026-06-12T18:00:00Z"),
            WorkSession.class);
  }

  private static final PlannedAction READ =
      PlannedAction.of(
          ProtocolRecords.action("read_source", "source:doc", "scope:research"), RiskClass.LOW);

  private static Policy ownedBy(String owner) {
    return SampleRecords.policyRecord().ownerWorkerId(owner);
  }

  @Test
  void a_policy_owned_by_the_worksessions_human_is_judged_by_the_engine() {
    assertEquals(
        PolicyDecisionResult.ALLOW,
        client
            .policy(
                session("worker-human-1", SampleRecords.POLICY_ID),
                ownedBy("worker-human-1"),
                PolicyAssignments.none(),
                READ)
            .result());
  }

  @Test
  void a_policy_owned_by_someone_else_is_denied_before_anything_is_sent() {
    var evaluation =
        client.policy(
            session("worker-human-1", SampleRecords.POLICY_ID),
            ownedBy("worker-someone-else"),
            PolicyAssignments.none(),
            READ);
    assertEquals(PolicyDecisionResult.DENY, evaluation.result());
    assertEquals(JarvisClient.WORK_SESSION_POLICY_RULE, evaluation.rule());
  }

  @Test
  void a_policy_the_host_assigns_to_the_human_governs_it() {
    assertEquals(
        PolicyDecisionResult.ALLOW,
        client
            .policy(
                session("worker-human-1", SampleRecords.POLICY_ID),
                ownedBy("worker-someone-else"),
                PolicyAssignments.none().assign(SampleRecords.POLICY_ID, "worker-human-1"),
                READ)
            .result());
  }

  @Test
  void another_policy_than_the_worksessions_own_is_denied() {
    Policy other = ownedBy("worker-human-1").id("policy-other");
    assertEquals(
        PolicyDecisionResult.DENY,
        client
            .policy(
                session("worker-human-1", SampleRecords.POLICY_ID),
                other,
                PolicyAssignments.none().assignToEveryHuman("policy-other"),
                READ)
            .result());
  }
}
