package dev.jarvis.testkit;

import static dev.jarvis.testkit.StubWorld.AGENT;
import static dev.jarvis.testkit.StubWorld.AGENT_WORKER;
import static dev.jarvis.testkit.StubWorld.HUMAN;
import static dev.jarvis.testkit.StubWorld.NOW;
import static dev.jarvis.testkit.StubWorld.SESSION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import org.junit.jupiter.api.Test;

class ResponseValidationTest {

  @Test
  void anAnswerTheSpecRefusesIsServedAs500AndFailsTheTest() {
    // Host ids with a space make the exported manifest's ids invalid JarvisIds.
    try (JarvisHostStub host =
        JarvisHostStub.builder().clock(StubWorld.CLOCK).ids(() -> "not valid").build().start()) {
      StubCalls calls = new StubCalls(host.baseUrl(), StubWorld.CLOCK);
      ChainCursor cursor = StubWorld.sessionAtRevisionOne(calls);
      ObjectNode note =
          EventChain.next(
              cursor, SampleRecords.eventDraft("evt-n", SESSION, AGENT, "note.recorded", NOW));
      cursor = StubWorld.cursorOf(host.workSession(SESSION).orElseThrow());
      calls.call("appendJarvisEvent", SESSION, AGENT, cursor, note);
      cursor = StubWorld.cursorOf(host.workSession(SESSION).orElseThrow());
      calls.call(
          "recordContribution",
          SESSION,
          AGENT,
          cursor,
          SampleRecords.contribution("contrib-1", SESSION, AGENT_WORKER, AGENT, "evt-n", NOW));
      cursor = StubWorld.cursorOf(host.workSession(SESSION).orElseThrow());
      calls.call(
          "appendJarvisEvent",
          SESSION,
          HUMAN,
          cursor,
          EventChain.next(
              cursor,
              SampleRecords.eventDraft("evt-done", SESSION, HUMAN, "work_session.completed", NOW)));

      StubCalls.Answer export = calls.call("exportEvidenceManifest", SESSION, HUMAN, null, null);

      assertEquals(500, export.status());
      assertEquals(1, host.responseDefects().size());
      assertTrue(
          host.responseDefects().get(0).contains("EvidenceManifest"),
          host.responseDefects().get(0));
      AssertionError failure = assertThrows(AssertionError.class, () -> host.afterEach(null));
      assertTrue(failure.getMessage().contains("the spec refuses"));
    }
  }
}
