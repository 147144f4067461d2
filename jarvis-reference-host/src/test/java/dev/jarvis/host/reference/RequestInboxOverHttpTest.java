package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.requestinbox.InboxPage;
import dev.jarvis.core.requestinbox.RequestInbox;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.host.WorkSessionGovernance;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/**
 * The {@code request-inbox} capability over HTTP on the reference host (Undertow), with credentials
 * bound to Actors: a human reads the Requests waiting on it across its WorkSessions and no one
 * else's, another human (its own token) reads its own and never the first one's, an agent is
 * refused, a bad query is refused at its parameter, and the long poll answers when a Request comes.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class RequestInboxOverHttpTest {

  private static final String WS = Payloads.WS;
  private static final String WS_2 = "ws-protocol-002";
  private static final String OUTSIDER = TestHost.OUTSIDER;
  private static final String OUTSIDER_WORKER = "worker-human-999";
  private static final String OUTSIDER_WS = "ws-protocol-outsider";

  private static TestHost host() {
    TestHost t =
        TestHost.withCredentials(
            b ->
                b.governance(
                    WorkSessionGovernance.NONE.assignPolicy(Payloads.POLICY, OUTSIDER_WORKER)));
    t.register(Payloads.worker(OUTSIDER_WORKER, "human"));
    t.registerActor(Payloads.actor(OUTSIDER, OUTSIDER_WORKER, "human", true));
    assertEquals(201, t.createSession(WS_2).status());
    Map<String, String> genesis = t.mutation(OUTSIDER);
    genesis.put("Jarvis-Expected-WorkSession-Revision", "0");
    genesis.put("Jarvis-Previous-Event-Hash", "hash:protocol-genesis");
    ObjectNode session = Payloads.workSession(OUTSIDER_WS);
    session.put("created_by_actor_id", OUTSIDER).put("human_worker_id", OUTSIDER_WORKER);
    Answer created = t.send("POST", "/work-sessions", genesis, session.toString());
    assertEquals(201, created.status(), created.text());
    return t;
  }

  /** The agent's decision and its Request in {@code ws}, asking {@code target}. */
  private static void request(TestHost t, String ws, String requestId, String target) {
    ObjectNode decision =
        Payloads.decision("pd-" + requestId, "fetch_external_source", "review_required");
    decision.put("work_session_id", ws).put("request_id", requestId);
    Steps.created(post(t, ws, "/policy-decisions", decision));
    ObjectNode request = Payloads.request(requestId, "pd-" + requestId, "fetch_external_source");
    request.put("work_session_id", ws).put("target_human_worker_id", target);
    Steps.created(post(t, ws, "/requests", request));
  }

  private static Answer post(TestHost t, String ws, String path, JsonNode body) {
    JsonNode session = t.get("/work-sessions/" + ws, Payloads.AGENT).json();
    ChainCursor at =
        new ChainCursor(
            session.path("revision").asLong(), session.path("last_event_hash").asText());
    return t.send(
        "POST", "/work-sessions/" + ws + path, t.scoped(Payloads.AGENT, at), body.toString());
  }

  private static Answer inbox(TestHost t, String actor, String query) {
    return t.get(RequestInbox.PATH + (query.isEmpty() ? "" : "?" + query), actor);
  }

  private static List<String> ids(Answer answer) {
    assertEquals(200, answer.status(), answer.text());
    InboxPage page = InboxPage.of(answer.json(), PayloadValidator.forSpec());
    return page.requests().stream().map(r -> r.path("id").asText()).toList();
  }

  @Test
  void each_human_reads_the_requests_waiting_on_it_across_its_work_sessions_and_no_others()
      throws Exception {
    try (TestHost t = host()) {
      request(t, WS, "req-1", Payloads.HUMAN_WORKER);
      request(t, OUTSIDER_WS, "req-o", OUTSIDER_WORKER);
      request(t, WS_2, "req-2", Payloads.HUMAN_WORKER);
      Answer mine = inbox(t, Payloads.HUMAN, "");
      assertEquals(List.of("req-1", "req-2"), ids(mine));
      assertTrue(mine.header("Content-Type").orElseThrow().startsWith("application/json"));
      assertTrue(
          mine.header("Jarvis-Host-Capabilities").orElseThrow().contains(RequestInbox.CAPABILITY));
      // Positive control: the outsider's own inbox answers, with its own Request only.
      assertEquals(List.of("req-o"), ids(inbox(t, OUTSIDER, "status=pending,acknowledged")));
      // The outsider's token cannot name the human: the credential is bound to its Actor.
      Map<String, String> asHuman = t.read(Payloads.HUMAN);
      asHuman.put("Authorization", "Bearer " + t.tokenOf(OUTSIDER));
      Answer impersonating = t.send("GET", RequestInbox.PATH, asHuman, null);
      assertEquals(400, impersonating.status());
      assertEquals("unauthorized_actor", impersonating.json().path("error_id").asText());
      Answer agent = inbox(t, Payloads.AGENT, "");
      assertEquals(400, agent.status());
      assertEquals("unauthorized_actor", agent.json().path("error_id").asText());
      assertEquals("Jarvis-Actor-Id", agent.json().path("field").asText());
    }
  }

  @Test
  void a_query_out_of_form_is_refused_at_its_parameter_with_a_protocol_error() {
    try (TestHost t = host()) {
      Answer refused = inbox(t, Payloads.HUMAN, "status=Pending");
      assertEquals(400, refused.status());
      assertEquals("unknown_state", refused.json().path("error_id").asText());
      assertEquals("/status", refused.json().path("field").asText());
      assertEquals("/wait", inbox(t, Payloads.HUMAN, "wait=31").json().path("field").asText());
      assertEquals("/limit", inbox(t, Payloads.HUMAN, "limit=0").json().path("field").asText());
      assertEquals(405, t.send("POST", RequestInbox.PATH, t.read(Payloads.HUMAN), "{}").status());
    }
  }

  @Test
  void a_long_poll_answers_when_a_request_comes_in_any_of_the_humans_work_sessions()
      throws Exception {
    try (TestHost t = host()) {
      request(t, WS, "req-1", Payloads.HUMAN_WORKER);
      Answer first = inbox(t, Payloads.HUMAN, "");
      long after = first.json().path(InboxPage.NEXT_AFTER).asLong();
      CompletableFuture<Answer> poll =
          CompletableFuture.supplyAsync(
              () -> inbox(t, Payloads.HUMAN, "after=" + after + "&wait=30"));
      request(t, WS_2, "req-2", Payloads.HUMAN_WORKER);
      Answer woken = poll.get(20, TimeUnit.SECONDS);
      assertEquals(List.of("req-2"), ids(woken));
      assertFalse(woken.json().path(InboxPage.HAS_MORE).asBoolean());
    }
  }

  @Test
  void the_reference_host_on_jersey_serves_the_same_read_and_long_poll() throws Exception {
    try (TestHost t = TestHost.started(c -> c.runtime(HttpRuntime.JERSEY), b -> b)) {
      assertEquals(201, t.createSession(WS).status());
      request(t, WS, "req-1", Payloads.HUMAN_WORKER);
      Answer mine = inbox(t, Payloads.HUMAN, "");
      assertEquals(List.of("req-1"), ids(mine));
      assertTrue(
          mine.header("Jarvis-Host-Capabilities").orElseThrow().contains(RequestInbox.CAPABILITY));
      assertEquals(400, inbox(t, Payloads.AGENT, "").status());
      assertEquals("/status", inbox(t, Payloads.HUMAN, "status=").json().path("field").asText());
      long after = mine.json().path(InboxPage.NEXT_AFTER).asLong();
      CompletableFuture<Answer> poll =
          CompletableFuture.supplyAsync(
              () -> inbox(t, Payloads.HUMAN, "after=" + after + "&wait=30"));
      assertEquals(201, t.createSession(WS_2).status());
      request(t, WS_2, "req-2", Payloads.HUMAN_WORKER);
      assertEquals(List.of("req-2"), ids(poll.get(20, TimeUnit.SECONDS)));
    }
  }

  @Test
  void a_host_that_does_not_declare_the_capability_answers_405() {
    try (TestHost t =
        TestHost.started(b -> b.capabilities(List.of("cursor-headers", "event-log")))) {
      assertEquals(405, inbox(t, Payloads.HUMAN, "").status());
    }
  }
}
