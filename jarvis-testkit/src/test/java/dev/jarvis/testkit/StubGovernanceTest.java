package dev.jarvis.testkit;

import static dev.jarvis.testkit.StubWorld.ADMIN;
import static dev.jarvis.testkit.StubWorld.AGENT;
import static dev.jarvis.testkit.StubWorld.AGENT_WORKER;
import static dev.jarvis.testkit.StubWorld.HUMAN;
import static dev.jarvis.testkit.StubWorld.HUMAN_WORKER;
import static dev.jarvis.testkit.StubWorld.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.samples.SampleRecords;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/**
 * The stub holds WorkSessions to the rules a real host does (#37): an agent opens one only for a
 * human it is configured to serve, under a Policy that governs that human.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class StubGovernanceTest {

  private static final String FOREIGN_POLICY = "policy-permissive-777";

  private static JarvisHostStub stub(JarvisHostStub.Builder builder) {
    ObjectNode foreign = JarvisJson.mapper().valueToTree(SampleRecords.policyRecord());
    foreign.put("id", FOREIGN_POLICY).put("owner_worker_id", "worker-someone-else");
    return builder
        .clock(StubWorld.CLOCK)
        .ids(StubWorld.counting("host"))
        .failOnReceivedViolations(false)
        .policy(foreign)
        .build();
  }

  private static StubCalls.Answer create(JarvisHostStub stub, String actor, String policyId) {
    StubCalls calls = new StubCalls(stub.baseUrl(), StubWorld.CLOCK);
    for (String[] w : new String[][] {{HUMAN_WORKER, "human"}, {AGENT_WORKER, "agent"}}) {
      calls.call("registerWorker", w[0], ADMIN, null, SampleRecords.worker(w[0], w[1]));
    }
    calls.call(
        "registerActor",
        HUMAN,
        ADMIN,
        null,
        SampleRecords.actor(HUMAN, HUMAN_WORKER, "human", NOW));
    calls.call(
        "registerActor",
        AGENT,
        ADMIN,
        null,
        SampleRecords.actor(AGENT, AGENT_WORKER, "agent", NOW));
    return calls.call(
        "createWorkSession",
        null,
        actor,
        ChainCursor.GENESIS,
        SampleRecords.workSession("ws-1", actor, HUMAN_WORKER, AGENT_WORKER, policyId, NOW));
  }

  @Test
  void by_default_a_human_opens_its_own_worksession_and_an_agent_opens_none() {
    try (JarvisHostStub stub = stub(JarvisHostStub.builder())) {
      stub.start();
      assertEquals(201, create(stub, HUMAN, SampleRecords.POLICY_ID).status());
    }
    try (JarvisHostStub stub = stub(JarvisHostStub.builder())) {
      stub.start();
      StubCalls.Answer agent = create(stub, AGENT, SampleRecords.POLICY_ID);
      assertEquals(
          "unauthorized_actor", agent.body().path("error_id").asText(), agent.body().toString());
    }
  }

  @Test
  void an_agent_the_stub_is_told_serves_the_human_opens_one_under_its_policy_only() {
    JarvisHostStub.Builder serving =
        JarvisHostStub.builder()
            .governance(JarvisHostStub.DEFAULT_GOVERNANCE.agentServes(AGENT_WORKER, HUMAN_WORKER));
    try (JarvisHostStub stub = stub(serving)) {
      stub.start();
      assertEquals(201, create(stub, AGENT, SampleRecords.POLICY_ID).status());
    }
    try (JarvisHostStub stub = stub(serving)) {
      stub.start();
      StubCalls.Answer foreign = create(stub, AGENT, FOREIGN_POLICY);
      assertEquals(
          "missing_policy", foreign.body().path("error_id").asText(), foreign.body().toString());
    }
  }
}
