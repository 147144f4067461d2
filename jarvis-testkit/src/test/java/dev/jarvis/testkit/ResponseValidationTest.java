package dev.jarvis.testkit;

import static dev.jarvis.testkit.StubWorld.AGENT;
import static dev.jarvis.testkit.StubWorld.NOW;
import static dev.jarvis.testkit.StubWorld.SESSION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.samples.SampleRecords;
import org.junit.jupiter.api.Test;

class ResponseValidationTest {

  @Test
  void anAnswerTheSpecRefusesIsServedAs500AndFailsTheTest() {
    // Host ids of 600 characters make every ProtocolError's trace_id longer than an OpaqueRef.
    try (JarvisHostStub host =
        JarvisHostStub.builder()
            .clock(StubWorld.CLOCK)
            .ids(() -> "x".repeat(600))
            .failOnReceivedViolations(false)
            .build()
            .start()) {
      StubCalls calls = new StubCalls(host.baseUrl(), StubWorld.CLOCK);
      ChainCursor cursor = StubWorld.sessionAtRevisionOne(calls);

      StubCalls.Answer refused =
          calls.call(
              "recordPolicyDecision",
              SESSION,
              AGENT,
              new ChainCursor(7, cursor.lastEventHash()),
              SampleRecords.policyDecision("pd-1", SESSION, AGENT, NOW));

      assertEquals(500, refused.status());
      assertEquals(1, host.responseDefects().size());
      assertTrue(
          host.responseDefects().get(0).contains("ProtocolError"), host.responseDefects().get(0));
      AssertionError failure = assertThrows(AssertionError.class, () -> host.afterEach(null));
      assertTrue(failure.getMessage().contains("the spec refuses"));
    }
  }
}
