package dev.jarvis.host;

import static dev.jarvis.host.KitHost.AGENT;
import static dev.jarvis.host.KitHost.HUMAN;
import static dev.jarvis.host.KitHost.OUTSIDER;
import static dev.jarvis.host.KitHost.WS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.headers.JarvisHeaders;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The {@code event-log} capability in process, through {@link ProtocolHost#answer} as the thin
 * bindings call it: pages by sequence with the cursor headers, members only with the one refusal
 * for a non-member and an unknown WorkSession, a page size refused above the maximum, and a host
 * that does not declare the capability answering as a host of the spec alone.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class EventLogReadTest {

  private static final String EVENTS = "/work-sessions/" + WS + "/events";

  private static KitHost sessionWithFiveEvents() {
    KitHost kit = KitHost.withSession();
    for (int i = 2; i <= 5; i++) {
      KitHost.ok(
          kit.append(
              WS, HUMAN, "evt-" + i, "note.recorded", JarvisJson.mapper().createObjectNode()));
    }
    return kit;
  }

  private static StoredResponse get(KitHost kit, String path, String query, String actor) {
    return get(kit, path, query, actor, Map.of());
  }

  private static StoredResponse get(
      KitHost kit, String path, String query, String actor, Map<String, String> extra) {
    Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.put(JarvisHeaders.PROTOCOL_VERSION, "v0.1");
    headers.put(JarvisHeaders.ACTOR_ID, actor);
    headers.putAll(extra);
    return kit.host.answer(
        "GET", path, query, name -> Optional.ofNullable(headers.get(name)), new byte[0]);
  }

  private static JsonNode body(StoredResponse response) {
    return KitHost.answerOf(response).body();
  }

  @Test
  void a_member_reads_the_chain_a_page_at_a_time_with_the_cursor_headers() {
    KitHost kit = sessionWithFiveEvents();
    ChainCursor cursor = kit.cursor(WS);
    List<JsonNode> read = new ArrayList<>();
    long after = 0;
    boolean more = true;
    int pages = 0;
    while (more) {
      StoredResponse page = get(kit, EVENTS, "after=" + after + "&limit=2", HUMAN);
      assertEquals(200, page.status(), new String(page.body()));
      assertEquals("5", page.headers().get(JarvisHeaders.WORK_SESSION_REVISION));
      assertEquals(cursor.lastEventHash(), page.headers().get(JarvisHeaders.LAST_EVENT_HASH));
      JsonNode body = body(page);
      assertEquals(WS, body.path("work_session_id").asText());
      body.path("events").forEach(read::add);
      after += body.path("events").size();
      more = body.path("has_more").asBoolean();
      pages++;
    }
    assertEquals(3, pages);
    // As text: a tree read back from bytes may hold a sequence as another number node type.
    assertEquals(kit.host.config().stores().sessions().events(WS).toString(), read.toString());
    assertEquals(Optional.empty(), EventChain.verify(read));
  }

  @Test
  void a_page_holds_the_events_after_the_sequence_asked_for_and_says_whether_more_follow() {
    KitHost kit = sessionWithFiveEvents();
    JsonNode middle = body(get(kit, EVENTS, "after=2&limit=2", AGENT));
    assertEquals(3, middle.path("events").get(0).path("sequence").asLong());
    assertEquals(4, middle.path("events").get(1).path("sequence").asLong());
    assertTrue(middle.path("has_more").asBoolean());
    JsonNode end = body(get(kit, EVENTS, "after=5", AGENT));
    assertEquals(0, end.path("events").size());
    assertFalse(end.path("has_more").asBoolean());
    JsonNode whole = body(get(kit, EVENTS, "", AGENT));
    assertEquals(5, whole.path("events").size());
    assertFalse(whole.path("has_more").asBoolean());
  }

  @Test
  void a_non_member_and_an_unknown_work_session_get_the_same_refusal() {
    KitHost kit = sessionWithFiveEvents();
    JsonNode outsider = untraced(get(kit, EVENTS, "", OUTSIDER));
    JsonNode nowhere = untraced(get(kit, "/work-sessions/ws-nowhere/events", "", HUMAN));
    assertEquals("unauthorized_actor", outsider.path("body").path("error_id").asText());
    assertEquals(outsider, nowhere);
    JsonNode getWorkSession = untraced(get(kit, "/work-sessions/" + WS, "", OUTSIDER));
    assertEquals(getWorkSession, outsider, "the same refusal as the spec's reads give");
  }

  private static JsonNode untraced(StoredResponse response) {
    ObjectNode body = (ObjectNode) body(response);
    body.remove("trace_id");
    return JarvisJson.mapper()
        .createObjectNode()
        .put("status", response.status())
        .set("body", body);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "limit=1001",
        "limit=0",
        "limit=01",
        "limit=-1",
        "after=-1",
        "after=x",
        "after=1&after=2",
        "limit=%zz"
      })
  void a_page_the_query_does_not_name_plainly_is_refused_not_cut(String query) {
    KitHost kit = sessionWithFiveEvents();
    StoredResponse answer = get(kit, EVENTS, query, HUMAN);
    assertEquals(400, answer.status(), query);
    assertEquals("unknown_state", body(answer).path("error_id").asText());
  }

  @Test
  void host_auth_is_judged_before_the_page_the_query_asks_for() {
    KitHost kit = new KitHost(HostAuth.bearer("s3cret"), "Bearer s3cret");
    kit.createSession(WS);
    assertEquals(401, get(kit, EVENTS, "limit=0", HUMAN).status());
    assertEquals(
        400, get(kit, EVENTS, "limit=0", HUMAN, Map.of("Authorization", "Bearer s3cret")).status());
  }

  @Test
  void the_largest_page_is_the_documented_maximum() {
    KitHost kit = sessionWithFiveEvents();
    StoredResponse answer = get(kit, EVENTS, "limit=" + EventLog.MAX_LIMIT, HUMAN);
    assertEquals(200, answer.status());
    assertEquals(5, body(answer).path("events").size());
  }

  @Test
  void the_host_declares_event_log_by_default_and_a_caller_may_require_it() {
    KitHost kit = sessionWithFiveEvents();
    StoredResponse answer =
        get(kit, EVENTS, "", HUMAN, Map.of(JarvisHeaders.REQUIRED_CAPABILITIES, "event-log"));
    assertEquals(200, answer.status());
    assertTrue(answer.headers().get(JarvisHeaders.HOST_CAPABILITIES).contains("event-log"));
  }

  @Test
  void a_host_without_the_capability_answers_the_read_as_another_method() {
    KitHost kit =
        new KitHost(
            HostAuth.anyCaller(), "", b -> b.capabilities(List.of(HostConfig.CURSOR_HEADERS)));
    kit.createSession(WS);
    StoredResponse answer = get(kit, EVENTS, "", HUMAN);
    assertEquals(405, answer.status());
    assertEquals("cursor-headers", answer.headers().get(JarvisHeaders.HOST_CAPABILITIES));
    StoredResponse required =
        get(
            kit,
            "/work-sessions/" + WS,
            "",
            HUMAN,
            Map.of(JarvisHeaders.REQUIRED_CAPABILITIES, "event-log"));
    assertEquals("unsupported_capability", body(required).path("error_id").asText());
  }
}
