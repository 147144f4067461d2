package dev.jarvis.host;

import static dev.jarvis.host.KitHost.AGENT;
import static dev.jarvis.host.KitHost.AGENT_WORKER;
import static dev.jarvis.host.KitHost.HUMAN;
import static dev.jarvis.host.KitHost.OTHER_WORKER;
import static dev.jarvis.host.KitHost.OTHER_WS;
import static dev.jarvis.host.KitHost.OUTSIDER;
import static dev.jarvis.host.KitHost.SECOND_HUMAN;
import static dev.jarvis.host.KitHost.WS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.requestinbox.InboxPage;
import dev.jarvis.core.requestinbox.RequestInbox;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.model.Request;
import dev.jarvis.samples.SampleRecords;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The {@code request-inbox} capability in process, through {@link ProtocolHost#answer} and {@link
 * ProtocolHost#answerHeld} as the thin bindings call them: a human's Requests across its
 * WorkSessions and no other human's (look-alike Workers included), pending by default, filtered by
 * the spec's statuses only, paged by cursor, a due expiry written first, an agent refused as a
 * non-member is, strict parameters, and the long poll woken by a new Request.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class RequestInboxTest {

  private static final String PATH = RequestInbox.PATH;
  private static final String OUTSIDER_WS = "ws-outsider";
  private static final String LOOK_ALIKE_WORKER = "Worker-human-1";
  private static final String LOOK_ALIKE = "actor-look-alike";

  private static KitHost declaring() {
    KitHost kit = new KitHost(HostAuth.anyCaller(), "", b -> b.capability(RequestInbox.CAPABILITY));
    kit.createSession(WS);
    kit.createSession(OTHER_WS);
    return kit;
  }

  private static Map<String, String> headers(String actor, String... more) {
    Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.put(JarvisHeaders.PROTOCOL_VERSION, "v0.1");
    headers.put(JarvisHeaders.ACTOR_ID, actor);
    for (int i = 0; i < more.length; i += 2) {
      headers.put(more[i], more[i + 1]);
    }
    return headers;
  }

  private static StoredResponse inbox(KitHost kit, String actor, String query, String... more) {
    Map<String, String> h = headers(actor, more);
    return kit.host.answer(
        "GET", PATH, query, name -> Optional.ofNullable(h.get(name)), new byte[0]);
  }

  private static JsonNode body(StoredResponse response) {
    return KitHost.answerOf(response).body();
  }

  private static InboxPage page(StoredResponse response) {
    assertEquals(200, response.status(), new String(response.body()));
    return InboxPage.of(body(response), PayloadValidator.forSpec());
  }

  private static List<String> ids(InboxPage page) {
    return page.requests().stream().map(r -> r.path(Request.JSON_PROPERTY_ID).asText()).toList();
  }

  /** The outsider, a human of another Worker, opens a WorkSession of its own with the agent. */
  private static void outsiderSession(KitHost kit) {
    KitHost.ok(
        kit.send(
            "createWorkSession",
            Map.of(),
            OUTSIDER,
            SampleRecords.workSession(OUTSIDER_WS, OUTSIDER, OTHER_WORKER, AGENT_WORKER, kit.now()),
            ""));
    kit.decide(OUTSIDER_WS, "pd-o", "fetch_external_source", "review_required", "req-o");
    ObjectNode request =
        kit.request(OUTSIDER_WS, "req-o", "pd-o", "fetch_external_source", Duration.ofMinutes(30));
    request.put(Request.JSON_PROPERTY_TARGET_HUMAN_WORKER_ID, OTHER_WORKER);
    KitHost.ok(kit.scoped("createRequest", OUTSIDER_WS, AGENT, request));
  }

  @Test
  void a_human_sees_the_pending_requests_of_all_its_work_sessions_in_the_order_they_came() {
    KitHost kit = declaring();
    kit.pendingFetch(WS, "pd-1", "req-1");
    kit.pendingFetch(OTHER_WS, "pd-2", "req-2");
    kit.pendingFetch(WS, "pd-3", "req-3");
    InboxPage page = page(inbox(kit, HUMAN, ""));
    assertEquals(List.of("req-1", "req-2", "req-3"), ids(page));
    assertFalse(page.hasMore());
    assertEquals(OTHER_WS, page.requests().get(1).path("work_session_id").asText());
    // Exactly the Request the host holds: the same record request-read would answer.
    assertEquals(kit.record(RecordKind.REQUEST, "req-2").orElseThrow(), page.requests().get(1));
    assertEquals(
        page.requests(),
        page(inbox(kit, SECOND_HUMAN, "")).requests(),
        "it is the human Worker's inbox, whichever of its Actors asks");
  }

  @Test
  void another_human_never_sees_them_and_sees_its_own() {
    KitHost kit = declaring();
    kit.pendingFetch(WS, "pd-1", "req-1");
    kit.pendingFetch(OTHER_WS, "pd-2", "req-2");
    outsiderSession(kit);
    // Positive control: the outsider's inbox works and holds its own Request only.
    assertEquals(List.of("req-o"), ids(page(inbox(kit, OUTSIDER, ""))));
    assertEquals(List.of("req-1", "req-2"), ids(page(inbox(kit, HUMAN, ""))));
    for (String status : RequestInbox.DEFAULT_STATUSES) {
      assertEquals(
          List.of("req-o"),
          ids(page(inbox(kit, OUTSIDER, "status=" + status + ",approved,expired&after=0"))));
    }
  }

  @Test
  void a_human_of_a_look_alike_worker_sees_nothing() {
    KitHost kit = declaring();
    kit.pendingFetch(WS, "pd-1", "req-1");
    kit.admin(
        "registerWorker", LOOK_ALIKE_WORKER, SampleRecords.worker(LOOK_ALIKE_WORKER, "human"));
    kit.admin(
        "registerActor",
        LOOK_ALIKE,
        SampleRecords.actor(LOOK_ALIKE, LOOK_ALIKE_WORKER, "human", "2026-06-12T17:00:00Z"));
    InboxPage page = page(inbox(kit, LOOK_ALIKE, "status=pending,acknowledged"));
    assertEquals(List.of(), page.requests());
    assertEquals(List.of("req-1"), ids(page(inbox(kit, HUMAN, ""))));
  }

  @Test
  void an_agent_has_no_inbox_and_is_refused_alike_whatever_waits() {
    KitHost kit = declaring();
    JsonNode before = untraced(inbox(kit, AGENT, ""));
    kit.pendingFetch(WS, "pd-1", "req-1");
    JsonNode after = untraced(inbox(kit, AGENT, ""));
    assertEquals(400, after.path("status").asInt());
    assertEquals("unauthorized_actor", after.path("body").path("error_id").asText());
    assertEquals(JarvisHeaders.ACTOR_ID, after.path("body").path("field").asText());
    assertEquals(before, after, "the refusal says nothing about the Requests");
    assertEquals(
        "unauthorized_actor",
        body(inbox(kit, "actor-nobody", "")).path("error_id").asText(),
        "an Actor the host does not know is refused the same way");
  }

  @Test
  void a_resolved_request_leaves_the_pending_inbox_and_reads_under_its_status() {
    KitHost kit = declaring();
    kit.approvedFetch(WS, "pd-1", "req-1", "rev-1");
    kit.pendingFetch(OTHER_WS, "pd-2", "req-2");
    assertEquals(List.of("req-2"), ids(page(inbox(kit, HUMAN, ""))));
    InboxPage approved = page(inbox(kit, HUMAN, "status=approved"));
    assertEquals(List.of("req-1"), ids(approved));
    assertEquals("rev-1", approved.requests().get(0).path("resolved_by_review_id").asText());
    assertEquals(
        List.of("req-1", "req-2"), ids(page(inbox(kit, HUMAN, "status=pending,approved"))));
  }

  @Test
  void a_request_past_its_expiry_is_written_expired_before_the_page_is_answered() {
    KitHost kit = declaring();
    kit.pendingFetch(WS, "pd-1", "req-1");
    long before = kit.cursor(WS).revision();
    kit.clock.advance(Duration.ofMinutes(31));
    assertEquals(List.of(), ids(page(inbox(kit, HUMAN, ""))));
    assertEquals(before + 1, kit.cursor(WS).revision(), "the expiry event was written");
    assertEquals(List.of("req-1"), ids(page(inbox(kit, HUMAN, "status=expired"))));
  }

  @Test
  void pages_follow_the_cursor_and_say_whether_more_follow() {
    KitHost kit = declaring();
    kit.pendingFetch(WS, "pd-1", "req-1");
    kit.pendingFetch(OTHER_WS, "pd-2", "req-2");
    kit.pendingFetch(WS, "pd-3", "req-3");
    List<String> seen = new ArrayList<>();
    long after = 0;
    InboxPage page;
    do {
      page = page(inbox(kit, HUMAN, "limit=2&after=" + after));
      seen.addAll(ids(page));
      assertTrue(page.nextAfter() > after || page.requests().isEmpty());
      after = page.nextAfter();
    } while (page.hasMore());
    assertEquals(List.of("req-1", "req-2", "req-3"), seen);
    InboxPage end = page(inbox(kit, HUMAN, "after=" + after));
    assertEquals(List.of(), end.requests());
    assertEquals(after, end.nextAfter(), "an empty page keeps the cursor it was asked after");
    kit.pendingFetch(OTHER_WS, "pd-4", "req-4");
    assertEquals(List.of("req-4"), ids(page(inbox(kit, HUMAN, "after=" + after))));
  }

  @ParameterizedTest(name = "{0} is refused at {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "status=PENDING|/status",
        "status=pending,|/status",
        "status=|/status",
        "status=pending,pending|/status",
        "status=open|/status",
        "status=pending&status=approved|/status",
        "status=%20pending|/status",
        "after=-1|/after",
        "after=01|/after",
        "limit=0|/limit",
        "limit=1001|/limit",
        "wait=31|/wait",
        "wait=1.5|/wait"
      })
  void a_query_out_of_form_is_refused_at_its_parameter(String query, String field) {
    KitHost kit = declaring();
    StoredResponse refused = inbox(kit, HUMAN, query);
    assertEquals(400, refused.status());
    assertEquals("unknown_state", body(refused).path("error_id").asText());
    assertEquals(field, body(refused).path("field").asText());
  }

  @Test
  void a_client_may_require_the_capability_and_a_host_without_it_answers_405() {
    KitHost kit = declaring();
    assertEquals(
        200,
        inbox(kit, HUMAN, "", JarvisHeaders.REQUIRED_CAPABILITIES, RequestInbox.CAPABILITY)
            .status());
    KitHost plain = KitHost.withSession();
    assertEquals(405, inbox(plain, HUMAN, "").status());
    assertFalse(plain.host.holds("GET", PATH, "wait=5", name -> Optional.empty()));
  }

  @Test
  void a_long_poll_answers_as_soon_as_a_new_request_comes() throws Exception {
    KitHost kit = declaring();
    kit.pendingFetch(WS, "pd-1", "req-1");
    long after = page(inbox(kit, HUMAN, "")).nextAfter();
    Map<String, String> h = headers(HUMAN);
    String query = "after=" + after + "&wait=30";
    assertTrue(kit.host.holds("GET", PATH, query, name -> Optional.ofNullable(h.get(name))));
    // The poll waits on no thread: answerHeld returns at once, and the new Request answers it.
    HeldAnswer.Polling poll =
        assertInstanceOf(
            HeldAnswer.Polling.class,
            kit.host.answerHeld(
                "GET", PATH, query, name -> Optional.ofNullable(h.get(name)), new byte[0]));
    assertEquals(1, kit.host.openStreams());
    kit.pendingFetch(OTHER_WS, "pd-2", "req-2");
    StoredResponse answer = poll.answer().toCompletableFuture().get(20, TimeUnit.SECONDS);
    assertEquals(List.of("req-2"), ids(page(answer)));
    assertEquals(0, kit.host.openStreams());
  }

  @Test
  void a_long_poll_of_another_humans_request_ends_empty_after_its_wait() throws Exception {
    KitHost kit = declaring();
    outsiderSession(kit);
    Map<String, String> h = headers(HUMAN);
    HeldAnswer answer =
        kit.host.answerHeld(
            "GET", PATH, "wait=1", name -> Optional.ofNullable(h.get(name)), new byte[0]);
    InboxPage page =
        page(
            assertInstanceOf(HeldAnswer.Polling.class, answer)
                .answer()
                .toCompletableFuture()
                .get(20, TimeUnit.SECONDS));
    assertEquals(List.of(), page.requests());
    assertEquals(0, page.nextAfter());
  }

  private static JsonNode untraced(StoredResponse response) {
    ObjectNode body = (ObjectNode) body(response);
    body.remove("trace_id");
    return JarvisJson.mapper()
        .createObjectNode()
        .put("status", response.status())
        .set("body", body);
  }
}
