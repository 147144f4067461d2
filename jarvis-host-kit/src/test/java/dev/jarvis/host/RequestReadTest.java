package dev.jarvis.host;

import static dev.jarvis.host.KitHost.AGENT;
import static dev.jarvis.host.KitHost.HUMAN;
import static dev.jarvis.host.KitHost.OUTSIDER;
import static dev.jarvis.host.KitHost.WS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.requestread.RequestRead;
import dev.jarvis.core.validation.PayloadValidator;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/**
 * The {@code request-read} capability in process, through {@link ProtocolHost#answer} as the thin
 * bindings call it: a Request as it is now (a due expiry written first), a Review with its
 * ApprovalScope, members only with the same refusal as every read, an unknown id refused, and a
 * host that does not declare the capability answering as a host of the spec alone.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class RequestReadTest {

  private static final String REQUESTS = "/work-sessions/" + WS + "/requests/";
  private static final String REVIEWS = "/work-sessions/" + WS + "/reviews/";

  private static KitHost declaring() {
    KitHost kit = new KitHost(HostAuth.anyCaller(), "", b -> b.capability(RequestRead.CAPABILITY));
    kit.createSession(WS);
    return kit;
  }

  private static StoredResponse get(KitHost kit, String path, String actor) {
    Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.put(JarvisHeaders.PROTOCOL_VERSION, "v0.1");
    headers.put(JarvisHeaders.ACTOR_ID, actor);
    return kit.host.answer(
        "GET", path, "", name -> Optional.ofNullable(headers.get(name)), new byte[0]);
  }

  private static JsonNode body(StoredResponse response) {
    return KitHost.answerOf(response).body();
  }

  @Test
  void a_member_reads_a_pending_request_as_the_host_holds_it() {
    KitHost kit = declaring();
    kit.pendingFetch(WS, "pd-1", "req-1");
    StoredResponse read = get(kit, REQUESTS + "req-1", AGENT);
    assertEquals(200, read.status(), new String(read.body()));
    assertEquals("pending", body(read).path("status").asText());
    assertEquals(List.of(), PayloadValidator.forSpec().validate("Request", body(read)));
  }

  @Test
  void an_approved_request_names_its_review_and_the_review_carries_its_approval_scope() {
    KitHost kit = declaring();
    kit.approvedFetch(WS, "pd-1", "req-1", "rev-1");
    JsonNode request = body(get(kit, REQUESTS + "req-1", AGENT));
    assertEquals("approved", request.path("status").asText());
    assertEquals("rev-1", request.path("resolved_by_review_id").asText());
    StoredResponse review = get(kit, REVIEWS + "rev-1", AGENT);
    assertEquals(200, review.status(), new String(review.body()));
    assertEquals("req-1", body(review).path("approval_scope").path("request_id").asText());
    assertEquals(List.of(), PayloadValidator.forSpec().validate("Review", body(review)));
  }

  @Test
  void a_request_past_its_expiry_reads_expired_because_the_read_writes_the_expiry_first() {
    KitHost kit = declaring();
    kit.pendingFetch(WS, "pd-1", "req-1");
    long before = kit.cursor(WS).revision();
    kit.clock.advance(Duration.ofMinutes(31));
    JsonNode request = body(get(kit, REQUESTS + "req-1", AGENT));
    assertEquals("expired", request.path("status").asText());
    assertEquals(before + 1, kit.cursor(WS).revision());
    assertEquals(
        kit.host.config().stores().sessions().events(WS).get((int) before).path("id").asText(),
        request.path("closed_by_event_ref").asText());
  }

  @Test
  void an_id_of_no_record_of_the_work_session_is_unknown_state_at_its_path_parameter() {
    KitHost kit = declaring();
    StoredResponse read = get(kit, REQUESTS + "req-nowhere", HUMAN);
    assertEquals(400, read.status());
    assertEquals("unknown_state", body(read).path("error_id").asText());
    assertEquals("request_id", body(read).path("field").asText());
    assertEquals(
        "review_id", body(get(kit, REVIEWS + "rev-nowhere", HUMAN)).path("field").asText());
  }

  @Test
  void a_non_member_gets_the_refusal_every_read_gives_whether_or_not_the_request_exists() {
    KitHost kit = declaring();
    kit.pendingFetch(WS, "pd-1", "req-1");
    JsonNode existing = untraced(get(kit, REQUESTS + "req-1", OUTSIDER));
    JsonNode unknown = untraced(get(kit, "/work-sessions/ws-nowhere/requests/req-1", HUMAN));
    assertEquals("unauthorized_actor", existing.path("body").path("error_id").asText());
    assertEquals(existing, unknown);
    assertEquals(untraced(get(kit, "/work-sessions/" + WS, OUTSIDER)), existing);
  }

  @Test
  void a_host_that_does_not_declare_the_capability_answers_the_reads_405() {
    KitHost kit = KitHost.withSession();
    kit.pendingFetch(WS, "pd-1", "req-1");
    assertEquals(405, get(kit, REQUESTS + "req-1", AGENT).status());
    assertEquals(405, get(kit, REVIEWS + "rev-1", AGENT).status());
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
