package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Genesis, the chain under concurrent writers, and idempotent replay, over HTTP. */
class ChainAndIdempotencyTest {

  private static final String DECISIONS = "/work-sessions/" + Payloads.WS + "/policy-decisions";

  @Test
  void genesisAnswersTheHostsCursorWhateverTheClientSent() {
    try (TestHost t = TestHost.started()) {
      Answer a = t.createSession(Payloads.WS);
      assertEquals(201, a.status(), a.text());
      JsonNode ws = a.json();
      assertEquals("active", ws.path("status").asText());
      assertEquals(1, ws.path("revision").asLong());
      assertEquals("event-log:" + Payloads.WS, ws.path("event_log_ref").asText());
      assertEquals("1", a.header("Jarvis-WorkSession-Revision").orElseThrow());
      assertEquals(
          ws.path("last_event_hash").asText(), a.header("Jarvis-Last-Event-Hash").orElseThrow());
      List<JsonNode> events = t.host.host().config().stores().sessions().events(Payloads.WS);
      assertEquals(1, events.size());
      assertEquals("work_session.created", events.get(0).path("type").asText());
      assertEquals(EventChain.verify(events), java.util.Optional.empty());
    }
  }

  @Test
  void genesisWithARevisionOtherThanZeroIsStale() {
    try (TestHost t = TestHost.started()) {
      Map<String, String> h = t.mutation(Payloads.HUMAN);
      h.put("Jarvis-Expected-WorkSession-Revision", "1");
      h.put("Jarvis-Previous-Event-Hash", "hash:protocol-genesis");
      Answer a = t.send("POST", "/work-sessions", h, Payloads.workSession(Payloads.WS).toString());
      assertEquals("stale_work_session_revision", a.errorId());
    }
  }

  @Test
  void aSecondGenesisOfOneIdIsStale() {
    try (TestHost t = TestHost.withSession()) {
      assertEquals("stale_work_session_revision", t.createSession(Payloads.WS).errorId());
    }
  }

  @Test
  void genesisForAnUnknownPolicyIsRefusedWithMissingPolicy() {
    try (TestHost t = TestHost.started()) {
      Map<String, String> h = t.mutation(Payloads.HUMAN);
      h.put("Jarvis-Expected-WorkSession-Revision", "0");
      h.put("Jarvis-Previous-Event-Hash", "hash:protocol-genesis");
      ObjectNode ws = Payloads.workSession(Payloads.WS);
      ws.put("policy_id", "policy-unknown");
      assertEquals("missing_policy", t.send("POST", "/work-sessions", h, ws.toString()).errorId());
    }
  }

  @Test
  void aHostWithADefaultPolicyAcceptsAWorkSessionNamingAnUnknownPolicy() {
    try (TestHost t = TestHost.started(b -> b.defaultPolicy(Payloads.policy()))) {
      Map<String, String> h = t.mutation(Payloads.HUMAN);
      h.put("Jarvis-Expected-WorkSession-Revision", "0");
      h.put("Jarvis-Previous-Event-Hash", "hash:protocol-genesis");
      ObjectNode ws = Payloads.workSession(Payloads.WS);
      ws.put("policy_id", "policy-unknown");
      assertEquals(201, t.send("POST", "/work-sessions", h, ws.toString()).status());
      ObjectNode decision = Payloads.decision("pd-1", "delete_repository", "allow");
      decision.put("policy_id", "policy-unknown");
      // The default Policy applies: it denies delete_repository.
      assertEquals(
          "policy_denied", t.scopedPost("/policy-decisions", Payloads.AGENT, decision).errorId());
    }
  }

  @Test
  void eightConcurrentWritersAtOneRevisionGiveOneWinnerAndALinearChain() throws Exception {
    try (TestHost t = TestHost.withSession()) {
      ChainCursor cursor = t.cursor();
      int writers = 8;
      CountDownLatch go = new CountDownLatch(1);
      ExecutorService pool = Executors.newFixedThreadPool(writers);
      List<Future<Answer>> answers = new ArrayList<>();
      for (int i = 0; i < writers; i++) {
        String id = "pd-race-" + i;
        Map<String, String> h = t.scoped(Payloads.AGENT, cursor);
        Callable<Answer> write =
            () -> {
              go.await();
              return t.send(
                  "POST", DECISIONS, h, Payloads.decision(id, "summarize", "allow").toString());
            };
        answers.add(pool.submit(write));
      }
      go.countDown();
      int won = 0;
      for (Future<Answer> f : answers) {
        Answer a = f.get();
        if (a.status() == 201) {
          won++;
        } else {
          assertEquals("stale_work_session_revision", a.errorId());
        }
      }
      pool.shutdown();
      assertEquals(1, won);
      List<JsonNode> events = t.host.host().config().stores().sessions().events(Payloads.WS);
      assertEquals(2, events.size());
      assertEquals(java.util.Optional.empty(), EventChain.verify(events));
      assertEquals(2, t.cursor().revision());
    }
  }

  @Test
  void eachAcceptedMutationAppendsExactlyOneEventAndSendsTheCursor() {
    try (TestHost t = TestHost.withSession()) {
      Answer a =
          t.scopedPost(
              "/policy-decisions", Payloads.AGENT, Payloads.decision("pd-1", "summarize", "allow"));
      assertEquals(201, a.status(), a.text());
      ChainCursor now = t.cursor();
      assertEquals(2, now.revision());
      assertEquals(
          Long.toString(now.revision()), a.header("Jarvis-WorkSession-Revision").orElseThrow());
      assertEquals(now.lastEventHash(), a.header("Jarvis-Last-Event-Hash").orElseThrow());
      JsonNode event = t.host.host().config().stores().sessions().events(Payloads.WS).get(1);
      assertEquals("policy_decision.recorded", event.path("type").asText());
      assertEquals("pd-1", event.path("payload").path("object_id").asText());
    }
  }

  @Test
  void aReplayAnswersTheFirstResponseByteForByteAfterTheSessionMovedOn() {
    try (TestHost t = TestHost.withSession()) {
      Map<String, String> h = t.scoped(Payloads.AGENT, t.cursor());
      String body = Payloads.decision("pd-1", "summarize", "allow").toString();
      Answer first = t.send("POST", DECISIONS, h, body);
      assertEquals(201, first.status(), first.text());
      assertEquals(
          201,
          t.scopedPost(
                  "/policy-decisions",
                  Payloads.AGENT,
                  Payloads.decision("pd-2", "summarize", "allow"))
              .status());
      t.clock.advance(java.time.Duration.ofSeconds(30));
      h.put(
          "Jarvis-Request-Timestamp",
          dev.jarvis.core.headers.RequestTimestamp.format(t.clock.instant()));
      Answer replay = t.send("POST", DECISIONS, h, body);
      assertEquals(first.status(), replay.status());
      assertArrayEquals(first.bytes(), replay.bytes());
      for (String name :
          List.of(
              "Jarvis-Protocol-Version",
              "Jarvis-Host-Capabilities",
              "Jarvis-WorkSession-Revision",
              "Jarvis-Last-Event-Hash")) {
        assertEquals(first.header(name), replay.header(name), name);
      }
      assertEquals(3, t.cursor().revision());
    }
  }

  @Test
  void aReusedKeyWithAnotherBodyIsAMismatch() {
    try (TestHost t = TestHost.withSession()) {
      Map<String, String> h = t.scoped(Payloads.AGENT, t.cursor());
      assertEquals(
          201,
          t.send("POST", DECISIONS, h, Payloads.decision("pd-1", "summarize", "allow").toString())
              .status());
      Answer a =
          t.send("POST", DECISIONS, h, Payloads.decision("pd-9", "summarize", "allow").toString());
      assertEquals(400, a.status());
      assertEquals("duplicate_idempotency_key_mismatch", a.errorId());
    }
  }

  @Test
  void aReusedKeyWithAnotherRequestTheRulesWouldAcceptIsAMismatchAndWritesNothing() {
    try (TestHost t = TestHost.withSession()) {
      Map<String, String> h = t.scoped(Payloads.AGENT, t.cursor());
      assertEquals(
          201,
          t.send("POST", DECISIONS, h, Payloads.decision("pd-1", "summarize", "allow").toString())
              .status());
      // The same key at the WorkSession's new cursor: nothing refuses this request but its key,
      // which the host finds taken only when it commits.
      ChainCursor after = t.cursor();
      Map<String, String> again = new java.util.LinkedHashMap<>(h);
      again.putAll(t.scoped(Payloads.AGENT, after));
      again.put("Jarvis-Idempotency-Key", h.get("Jarvis-Idempotency-Key"));
      Answer a =
          t.send(
              "POST", DECISIONS, again, Payloads.decision("pd-9", "summarize", "allow").toString());
      assertEquals("duplicate_idempotency_key_mismatch", a.errorId());
      assertEquals(after, t.cursor());
      // pd-9 was not recorded: under a key of its own it is a first decision of that id.
      assertEquals(
          201,
          t.scopedPost(
                  "/policy-decisions",
                  Payloads.AGENT,
                  Payloads.decision("pd-9", "summarize", "allow"))
              .status());
    }
  }

  @Test
  void twoConcurrentRequestsWithOneKeyHaveOneEffect() throws Exception {
    try (TestHost t = TestHost.withSession()) {
      Map<String, String> h = t.scoped(Payloads.AGENT, t.cursor());
      String body = Payloads.decision("pd-1", "summarize", "allow").toString();
      CountDownLatch go = new CountDownLatch(1);
      ExecutorService pool = Executors.newFixedThreadPool(2);
      Callable<Answer> send =
          () -> {
            go.await();
            return t.send("POST", DECISIONS, h, body);
          };
      Future<Answer> a = pool.submit(send);
      Future<Answer> b = pool.submit(send);
      go.countDown();
      Answer first = a.get();
      Answer second = b.get();
      pool.shutdown();
      assertEquals(201, first.status(), first.text());
      assertArrayEquals(first.bytes(), second.bytes());
      assertEquals(2, t.cursor().revision());
    }
  }

  @Test
  void anExpiredIdempotencyRecordNoLongerReplays() {
    try (TestHost t = TestHost.withSession()) {
      Map<String, String> h = t.scoped(Payloads.AGENT, t.cursor());
      String body = Payloads.decision("pd-1", "summarize", "allow").toString();
      assertEquals(201, t.send("POST", DECISIONS, h, body).status());
      t.clock.advance(java.time.Duration.ofHours(2));
      h.put(
          "Jarvis-Request-Timestamp",
          dev.jarvis.core.headers.RequestTimestamp.format(t.clock.instant()));
      // Past retention the request is evaluated afresh: its cursor is stale now.
      assertEquals("stale_work_session_revision", t.send("POST", DECISIONS, h, body).errorId());
    }
  }

  @Test
  void anAppendedClientEventIsStoredVerbatimAfterTheChainCheck() {
    try (TestHost t = TestHost.withSession()) {
      ChainCursor cursor = t.cursor();
      ObjectNode event =
          EventChain.next(cursor, Payloads.event("event-note-1", "note.added", Payloads.HUMAN));
      Answer a =
          t.send(
              "POST",
              "/work-sessions/" + Payloads.WS + "/events",
              t.scoped(Payloads.HUMAN, cursor),
              event.toString());
      assertEquals(201, a.status(), a.text());
      assertEquals(event.toString(), a.text());
      assertEquals(event.path("event_hash").asText(), t.cursor().lastEventHash());
    }
  }

  @Test
  void anAppendedEventWithAWrongHashIsRefusedWithInvalidEventHash() {
    try (TestHost t = TestHost.withSession()) {
      ChainCursor cursor = t.cursor();
      ObjectNode event =
          EventChain.next(cursor, Payloads.event("event-note-1", "note.added", Payloads.HUMAN));
      event.put("event_hash", "sha256:" + "1".repeat(64));
      Answer a =
          t.send(
              "POST",
              "/work-sessions/" + Payloads.WS + "/events",
              t.scoped(Payloads.HUMAN, cursor),
              event.toString());
      assertEquals("invalid_event_hash", a.errorId());
      assertTrue(t.cursor().equals(cursor));
    }
  }
}
