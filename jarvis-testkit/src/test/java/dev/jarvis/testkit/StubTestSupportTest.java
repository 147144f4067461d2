package dev.jarvis.testkit;

import static dev.jarvis.testkit.StubWorld.ADMIN;
import static dev.jarvis.testkit.StubWorld.AGENT;
import static dev.jarvis.testkit.StubWorld.HUMAN;
import static dev.jarvis.testkit.StubWorld.NOW;
import static dev.jarvis.testkit.StubWorld.SESSION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.samples.SampleRecords;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** What a test author gets from the stub beyond the protocol: JUnit support and scripted calls. */
class StubTestSupportTest {

  @Nested
  @JarvisHostStubTest
  class TheAnnotation {

    @Test
    void injectsARunningStubIntoTheTestMethod(JarvisHostStub host) {
      StubCalls calls = new StubCalls(host.baseUrl(), java.time.Clock.systemUTC());
      StubCalls.Answer answer =
          calls.call(
              "registerWorker", "worker-x", ADMIN, null, SampleRecords.worker("worker-x", "human"));
      assertEquals(200, answer.status(), answer.body().toString());
      assertTrue(host.worker("worker-x").isPresent());
    }
  }

  @Test
  void aTestWhoseRequestsBrokeARuleFailsUnlessTurnedOff() {
    try (JarvisHostStub host = JarvisHostStub.builder().clock(StubWorld.CLOCK).build().start()) {
      StubCalls calls = new StubCalls(host.baseUrl(), StubWorld.CLOCK);
      Map<String, String> headers = calls.headers("registerWorker", ADMIN, null);
      headers.remove(JarvisHeaders.IDEMPOTENCY_KEY);
      calls.send(
          "registerWorker",
          "worker-x",
          headers,
          SampleRecords.worker("worker-x", "human"),
          Duration.ofSeconds(5));

      AssertionError failure = assertThrows(AssertionError.class, () -> host.afterEach(null));
      assertTrue(failure.getMessage().contains("missing_idempotency_key"), failure.getMessage());
    }
  }

  @Test
  void twoActorsReusingOneIdempotencyKeyAreBothAcceptedAsOnARealHost() {
    try (JarvisHostStub host = StubWorld.stub().start()) {
      StubCalls calls = new StubCalls(host.baseUrl(), StubWorld.CLOCK);
      ChainCursor cursor = StubWorld.sessionAtRevisionOne(calls);

      Map<String, String> agent = calls.headers("recordPolicyDecision", AGENT, cursor);
      agent.put(JarvisHeaders.IDEMPOTENCY_KEY, "shared-key");
      StubCalls.Answer first =
          calls.send(
              "recordPolicyDecision",
              SESSION,
              agent,
              SampleRecords.policyDecision("pd-1", SESSION, AGENT, NOW),
              Duration.ofSeconds(5));
      assertEquals(201, first.status(), first.body().toString());

      ChainCursor next = new ChainCursor(2, first.header(JarvisHeaders.LAST_EVENT_HASH));
      Map<String, String> human = calls.headers("recordPolicyDecision", HUMAN, next);
      human.put(JarvisHeaders.IDEMPOTENCY_KEY, "shared-key");
      StubCalls.Answer second =
          calls.send(
              "recordPolicyDecision",
              SESSION,
              human,
              SampleRecords.policyDecision("pd-2", SESSION, HUMAN, NOW),
              Duration.ofSeconds(5));
      assertEquals(201, second.status(), second.body().toString());
      assertEquals(3, host.events(SESSION).size());
    }
  }

  @Test
  void aRefusalAimedAtOneOperationLetsOtherCallsThrough() {
    try (JarvisHostStub host = StubWorld.stub().start()) {
      StubCalls calls = new StubCalls(host.baseUrl(), StubWorld.CLOCK);
      ChainCursor cursor = StubWorld.sessionAtRevisionOne(calls);
      host.onNext("recordPolicyDecision", SESSION).refuse(ProtocolErrorId.POLICY_DENIED);

      StubCalls.Answer read = calls.call("getWorkSession", SESSION, AGENT, null, null);
      StubCalls.Answer refused =
          calls.call(
              "recordPolicyDecision",
              SESSION,
              AGENT,
              cursor,
              SampleRecords.policyDecision("pd-1", SESSION, AGENT, NOW));

      assertEquals(200, read.status());
      assertEquals("policy_denied", refused.errorId());
      assertEquals(1, host.events(SESSION).size());
    }
  }
}
