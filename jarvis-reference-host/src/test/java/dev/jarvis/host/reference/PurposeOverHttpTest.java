package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.host.RecordKind;
import java.time.Duration;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The purpose rules the hostile-agent walk does not reach, each over HTTP: membership of reads and
 * export, the Request's target human, expiry and supersession, the sealed-session id, freshness.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class PurposeOverHttpTest {

  private static final String OUTSIDER_WORKER = "worker-human-999";

  private static void registerOutsider(TestHost t) {
    t.register(Payloads.worker(OUTSIDER_WORKER, "human"));
    t.registerActor(Payloads.actor(TestHost.OUTSIDER, OUTSIDER_WORKER, "human", true));
  }

  private static Answer appendAt(TestHost t, String actor, ObjectNode draft, String timestamp) {
    draft.put("timestamp", timestamp);
    ChainCursor at = t.cursor();
    return t.send(
        "POST",
        "/work-sessions/" + Payloads.WS + "/events",
        t.scoped(actor, at),
        EventChain.next(at, draft).toString());
  }

  private static Answer append(TestHost t, String actor, ObjectNode draft) {
    return appendAt(t, actor, draft, RequestTimestamp.format(t.clock.instant()));
  }

  private static void pendingFetch(TestHost t, String decisionId, String requestId) {
    ObjectNode d = Payloads.decision(decisionId, "fetch_external_source", "review_required");
    d.put("request_id", requestId);
    assertEquals(201, t.scopedPost("/policy-decisions", Payloads.AGENT, d).status());
    ObjectNode r = Payloads.request(requestId, decisionId, "fetch_external_source");
    assertEquals(201, t.scopedPost("/requests", Payloads.AGENT, r).status());
  }

  private static JsonNode stored(TestHost t, RecordKind kind, String id) {
    // Ids are unique per kind across the host: the one WorkSession holding it answers.
    return t.host
        .host()
        .config()
        .stores()
        .records()
        .findInAnyWorkSession(kind, id)
        .map(dev.jarvis.host.StoredRecord::body)
        .orElseThrow();
  }

  @ParameterizedTest(name = "{0} by an Actor of no Worker of the WorkSession is refused")
  @ValueSource(strings = {"", "/export"})
  void a_read_by_an_outsider_is_refused_with_unauthorized_actor(String path) {
    try (TestHost t = TestHost.withSession()) {
      registerOutsider(t);
      Answer a = t.get("/work-sessions/" + Payloads.WS + path, TestHost.OUTSIDER);
      assertEquals("unauthorized_actor", a.errorId(), a.text());
    }
  }

  @Test
  void a_review_by_a_human_of_another_worker_than_the_requests_target_is_refused() {
    try (TestHost t = TestHost.withSession()) {
      ObjectNode d = Payloads.decision("pd-1", "fetch_external_source", "review_required");
      d.put("request_id", "req-1");
      assertEquals(201, t.scopedPost("/policy-decisions", Payloads.AGENT, d).status());
      registerOutsider(t);
      // A Request targets the WorkSession's human Worker, so a human of another Worker is no
      // member: refused before the Review's own rules are read.
      ObjectNode r = Payloads.request("req-1", "pd-1", "fetch_external_source");
      assertEquals(201, t.scopedPost("/requests", Payloads.AGENT, r).status());
      ObjectNode review = Payloads.review("review-1", "req-1", "deny");
      review.put("reviewer_actor_id", TestHost.OUTSIDER);
      review.put("reviewer_worker_id", OUTSIDER_WORKER);
      Answer a = t.scopedPost("/reviews", TestHost.OUTSIDER, review);
      assertEquals("unauthorized_actor", a.errorId(), a.text());
    }
  }

  @Test
  void a_request_past_its_expiry_is_expired_by_a_host_event_and_no_longer_blocks_completion() {
    try (TestHost t = TestHost.withSession()) {
      pendingFetch(t, "pd-1", "req-1");
      t.clock.advance(Duration.ofMinutes(16));
      JsonNode session = t.get("/work-sessions/" + Payloads.WS, Payloads.HUMAN).json();
      assertEquals("active", session.path("status").asText());
      JsonNode request = stored(t, RecordKind.REQUEST, "req-1");
      assertEquals("expired", request.path("status").asText());
      assertEquals(
          Payloads.WS + ".event." + session.path("revision").asLong(),
          request.path("closed_by_event_ref").asText());
      Answer done =
          append(
              t,
              Payloads.HUMAN,
              Payloads.event("event-done", "work_session.completed", Payloads.HUMAN));
      assertEquals(201, done.status(), done.text());
    }
  }

  @Test
  void a_duplicate_request_supersedes_its_original_which_then_counts_for_nothing() {
    try (TestHost t = TestHost.withSession()) {
      pendingFetch(t, "pd-1", "req-1");
      ObjectNode duplicate = Payloads.request("req-2", "pd-1", "fetch_external_source");
      duplicate.put("duplicate_of_request_id", "req-1");
      assertEquals(201, t.scopedPost("/requests", Payloads.AGENT, duplicate).status());
      JsonNode original = stored(t, RecordKind.REQUEST, "req-1");
      assertEquals("superseded", original.path("status").asText());
      assertEquals("req-2", original.path("superseded_by_request_id").asText());
    }
  }

  @Test
  void an_id_of_a_sealed_worksession_is_refused_in_another_as_sealed_evidence_mutation() {
    try (TestHost t = TestHost.withSession()) {
      String genesis =
          t.host.host().config().stores().sessions().events(Payloads.WS).get(0).path("id").asText();
      assertEquals(
          201,
          t.scopedPost("/contributions", Payloads.HUMAN, Payloads.contribution("c-1", genesis))
              .status());
      assertEquals(
          201,
          append(
                  t,
                  Payloads.HUMAN,
                  Payloads.event("event-done", "work_session.completed", Payloads.HUMAN))
              .status());
      assertEquals(
          200, t.get("/work-sessions/" + Payloads.WS + "/export", Payloads.HUMAN).status());
      assertEquals(201, t.createSession("ws-protocol-002").status());
      ObjectNode reused = Payloads.contribution("c-1", "ws-protocol-002.event.1");
      reused.put("work_session_id", "ws-protocol-002");
      ChainCursor at =
          t.host.host().config().stores().sessions().find("ws-protocol-002").orElseThrow().cursor();
      Answer a =
          t.send(
              "POST",
              "/work-sessions/ws-protocol-002/contributions",
              t.scoped(Payloads.HUMAN, at),
              reused.toString());
      assertEquals("sealed_evidence_mutation", a.errorId(), a.text());
    }
  }

  @ParameterizedTest(name = "an event stamped {0} s from the host clock is evidence after the fact")
  @ValueSource(longs = {-301, 301})
  void an_event_outside_the_freshness_window_is_refused(long seconds) {
    try (TestHost t = TestHost.withSession()) {
      Answer a =
          appendAt(
              t,
              Payloads.HUMAN,
              Payloads.event("event-late", "note.recorded", Payloads.HUMAN),
              RequestTimestamp.format(t.clock.instant().plusSeconds(seconds)));
      assertEquals("evidence_after_the_fact", a.errorId(), a.text());
    }
  }
}
