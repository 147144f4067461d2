package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.headers.RequestTimestamp;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every refusal of the request guard, over HTTP, with its status and error_id; none changes state.
 */
class RequestGuardTest {

  private static TestHost t;

  @BeforeAll
  static void start() {
    t = TestHost.withSession();
    t.registerActor(
        withField(
            Payloads.actor("actor-expired", Payloads.HUMAN_WORKER, "human", true),
            "valid_until",
            "2026-06-12T18:19:59Z"));
    t.registerActor(
        withField(
            Payloads.actor("actor-not-yet", Payloads.HUMAN_WORKER, "human", true),
            "valid_from",
            "2026-06-12T18:20:01Z"));
    t.registerActor(Payloads.actor("actor-observer", Payloads.HUMAN_WORKER, "human", false));
  }

  @AfterAll
  static void stop() {
    t.close();
  }

  private static ObjectNode withField(ObjectNode node, String field, String value) {
    node.put(field, value);
    return node;
  }

  static Stream<Arguments> refusals() {
    return Stream.of(
        refusal(
            "no Authorization header",
            401,
            "unauthorized_actor",
            h -> h.remove("Authorization"),
            b -> {}),
        refusal(
            "a wrong bearer token",
            401,
            "unauthorized_actor",
            h -> h.put("Authorization", "Bearer nope"),
            b -> {}),
        refusal(
            "no protocol version",
            400,
            "missing_protocol_version",
            h -> h.remove("Jarvis-Protocol-Version"),
            b -> {}),
        refusal(
            "protocol version v0.2",
            400,
            "unsupported_protocol_version",
            h -> h.put("Jarvis-Protocol-Version", "v0.2"),
            b -> {}),
        refusal("no Actor", 400, "missing_actor", h -> h.remove("Jarvis-Actor-Id"), b -> {}),
        refusal(
            "an unregistered Actor",
            400,
            "unauthorized_actor",
            h -> h.put("Jarvis-Actor-Id", "actor-nobody"),
            b -> b.put("actor_id", "actor-nobody")),
        refusal(
            "an Actor whose validity ended",
            400,
            "unauthorized_actor",
            h -> h.put("Jarvis-Actor-Id", "actor-expired"),
            b -> b.put("actor_id", "actor-expired")),
        refusal(
            "an Actor not valid yet",
            400,
            "unauthorized_actor",
            h -> h.put("Jarvis-Actor-Id", "actor-not-yet"),
            b -> b.put("actor_id", "actor-not-yet")),
        refusal(
            "an Actor that may not append events",
            400,
            "unauthorized_actor",
            h -> h.put("Jarvis-Actor-Id", "actor-observer"),
            b -> b.put("actor_id", "actor-observer")),
        refusal(
            "no idempotency key",
            400,
            "missing_idempotency_key",
            h -> h.remove("Jarvis-Idempotency-Key"),
            b -> {}),
        refusal(
            "no request timestamp",
            400,
            "missing_request_timestamp",
            h -> h.remove("Jarvis-Request-Timestamp"),
            b -> {}),
        refusal(
            "a malformed request timestamp",
            400,
            "missing_request_timestamp",
            h -> h.put("Jarvis-Request-Timestamp", "2026-06-12 18:20Z"),
            b -> {}),
        refusal(
            "a timestamp 301 s old",
            400,
            "stale_request_timestamp",
            h -> h.put("Jarvis-Request-Timestamp", "2026-06-12T18:14:59Z"),
            b -> {}),
        refusal(
            "a timestamp 301 s ahead",
            400,
            "stale_request_timestamp",
            h -> h.put("Jarvis-Request-Timestamp", "2026-06-12T18:25:01Z"),
            b -> {}),
        refusal(
            "no expected revision",
            400,
            "missing_expected_work_session_revision",
            h -> h.remove("Jarvis-Expected-WorkSession-Revision"),
            b -> {}),
        refusal(
            "no previous event hash",
            400,
            "missing_previous_event_hash",
            h -> h.remove("Jarvis-Previous-Event-Hash"),
            b -> {}),
        refusal(
            "a required capability the host lacks",
            400,
            "unsupported_capability",
            h -> h.put("Jarvis-Required-Capabilities", "cursor-headers, time-travel"),
            b -> {}),
        refusal(
            "a body for another WorkSession",
            400,
            "path_body_id_mismatch",
            h -> {},
            b -> b.put("work_session_id", "ws-other")),
        refusal(
            "a body naming another Actor",
            400,
            "actor_body_id_mismatch",
            h -> {},
            b -> b.put("actor_id", Payloads.HUMAN)),
        refusal(
            "an expected revision behind the WorkSession",
            400,
            "stale_work_session_revision",
            h -> h.put("Jarvis-Expected-WorkSession-Revision", "0"),
            b -> {}),
        refusal(
            "an expected revision beyond any 32-bit revision",
            400,
            "stale_work_session_revision",
            h -> h.put("Jarvis-Expected-WorkSession-Revision", "99999999999"),
            b -> {}),
        refusal(
            "a previous hash off the chain",
            400,
            "invalid_previous_event_hash",
            h -> h.put("Jarvis-Previous-Event-Hash", "sha256:" + "0".repeat(64)),
            b -> {}));
  }

  private static Arguments refusal(
      String name,
      int status,
      String errorId,
      Consumer<Map<String, String>> headers,
      Consumer<ObjectNode> body) {
    return Arguments.of(name, status, errorId, headers, body);
  }

  @ParameterizedTest(name = "{0} is refused with {2}")
  @MethodSource("refusals")
  void aMutationWithABrokenRuleIsRefusedAndChangesNothing(
      String name,
      int status,
      String errorId,
      Consumer<Map<String, String>> headers,
      Consumer<ObjectNode> body) {
    ChainCursor before = t.cursor();
    Map<String, String> h = t.scoped(Payloads.AGENT, before);
    headers.accept(h);
    ObjectNode decision = Payloads.decision("pd-guard", "summarize", "allow");
    body.accept(decision);
    Answer a =
        t.send(
            "POST", "/work-sessions/" + Payloads.WS + "/policy-decisions", h, decision.toString());
    assertEquals(status, a.status(), a.text());
    assertEquals(errorId, a.errorId());
    assertTrue(a.json().path("trace_id").asText().startsWith("trace:test-"));
    assertProtocolHeaders(a);
    assertEquals(before, t.cursor());
  }

  @Test
  void aReadNeedsNoMutationHeaders() {
    Answer a = t.get("/work-sessions/" + Payloads.WS, Payloads.AGENT);
    assertEquals(200, a.status(), a.text());
    assertEquals(Payloads.WS, a.json().path("id").asText());
    assertProtocolHeaders(a);
  }

  @Test
  void aReadWithoutActorIsRefusedWithMissingActor() {
    Map<String, String> h = t.read(Payloads.AGENT);
    h.remove("Jarvis-Actor-Id");
    Answer a = t.send("GET", "/work-sessions/" + Payloads.WS, h, null);
    assertEquals(400, a.status());
    assertEquals("missing_actor", a.errorId());
  }

  @Test
  void aReadOfAnUnknownWorkSessionIsRefusedAsANonMembersReadIs() {
    // No existence oracle (docs/protocol-decisions.md): an unknown WorkSession has no members.
    Answer a = t.get("/work-sessions/ws-nowhere", Payloads.AGENT);
    assertEquals(400, a.status());
    assertEquals("unauthorized_actor", a.errorId());
    assertEquals("Jarvis-Actor-Id", a.json().path("field").asText());
  }

  @Test
  void aReadRequiringOnlyTheHostsCapabilityIsServed() {
    Map<String, String> h = t.read(Payloads.AGENT);
    h.put("Jarvis-Required-Capabilities", "cursor-headers");
    assertEquals(200, t.send("GET", "/work-sessions/" + Payloads.WS, h, null).status());
  }

  @Test
  void malformedJsonIsAProtocolErrorNotAServerError() {
    Answer a =
        t.send(
            "POST",
            "/work-sessions/" + Payloads.WS + "/policy-decisions",
            t.scoped(Payloads.AGENT, t.cursor()),
            "{\"id\": ");
    assertEquals(400, a.status(), a.text());
    assertEquals("unknown_state", a.errorId());
    assertProtocolHeaders(a);
  }

  @Test
  void anUnknownFieldIsRefusedAtItsPointer() {
    ObjectNode decision = Payloads.decision("pd-guard", "summarize", "allow");
    decision.put("bogus", 1);
    Answer a =
        t.send(
            "POST",
            "/work-sessions/" + Payloads.WS + "/policy-decisions",
            t.scoped(Payloads.AGENT, t.cursor()),
            decision.toString());
    assertEquals(400, a.status(), a.text());
    assertEquals("/bogus", a.json().path("field").asText());
  }

  @Test
  void aWrongTypeIsRefusedAsAProtocolError() {
    ObjectNode decision = Payloads.decision("pd-guard", "summarize", "allow");
    decision.put("risk_class", 3);
    Answer a =
        t.send(
            "POST",
            "/work-sessions/" + Payloads.WS + "/policy-decisions",
            t.scoped(Payloads.AGENT, t.cursor()),
            decision.toString());
    assertEquals(400, a.status(), a.text());
    assertEquals("/risk_class", a.json().path("field").asText());
  }

  @Test
  void aDeeplyNestedBodyIsRefusedAsAProtocolError() {
    String nested = "[".repeat(5000) + "]".repeat(5000);
    Answer a =
        t.send(
            "POST",
            "/work-sessions/" + Payloads.WS + "/policy-decisions",
            t.scoped(Payloads.AGENT, t.cursor()),
            nested);
    assertEquals(400, a.status(), a.text());
    assertProtocolHeaders(a);
  }

  @Test
  void aHugeBodyIsRefusedUnread() {
    String huge = "{\"id\": \"" + "x".repeat(1 << 21) + "\"}";
    Answer a =
        t.send(
            "POST",
            "/work-sessions/" + Payloads.WS + "/policy-decisions",
            t.scoped(Payloads.AGENT, t.cursor()),
            huge);
    assertEquals(400, a.status(), a.text());
    assertEquals("unknown_state", a.errorId());
  }

  @Test
  void anUnknownPathIsAProtocolErrorWithProtocolHeaders() {
    Answer a = t.get("/nowhere", Payloads.AGENT);
    assertEquals(404, a.status());
    assertEquals("unknown_state", a.errorId());
    assertProtocolHeaders(a);
  }

  @Test
  void aWrongMethodIsAProtocolErrorWithProtocolHeaders() {
    Answer a = t.send("DELETE", "/work-sessions/" + Payloads.WS, t.read(Payloads.AGENT), null);
    assertEquals(405, a.status());
    assertEquals("unknown_state", a.errorId());
    assertProtocolHeaders(a);
  }

  @Test
  void aReadWithABadExtensionNamespaceIsRefused() {
    Map<String, String> h = t.read(Payloads.AGENT);
    h.put("Jarvis-Extensions", "NotANamespace");
    assertEquals(
        "invalid_extension_namespace",
        t.send("GET", "/work-sessions/" + Payloads.WS, h, null).errorId());
  }

  @Test
  void aWorkerCarryingAHostPrivateFieldIsRefused() {
    ObjectNode worker = Payloads.worker("worker-leaky", "human");
    worker.put("credential", "x");
    Answer a =
        t.send("PUT", "/workers/worker-leaky", t.mutation(TestHost.ADMIN), worker.toString());
    assertEquals("forbidden_host_private_field", a.errorId());
  }

  @Test
  void anExtensionOverridingACoreFieldIsRefused() {
    ObjectNode worker = Payloads.worker("worker-ext", "human");
    worker.putObject("extensions").put("role", "admin");
    Answer a = t.send("PUT", "/workers/worker-ext", t.mutation(TestHost.ADMIN), worker.toString());
    assertEquals("extension_core_field_override", a.errorId());
  }

  @Test
  void aWorkSessionWithoutObjectiveIsRefused() {
    Map<String, String> h = t.mutation(Payloads.HUMAN);
    h.put("Jarvis-Expected-WorkSession-Revision", "0");
    h.put("Jarvis-Previous-Event-Hash", "hash:protocol-genesis");
    ObjectNode ws = Payloads.workSession("ws-no-objective");
    ws.put("objective", "");
    assertEquals("missing_objective", t.send("POST", "/work-sessions", h, ws.toString()).errorId());
  }

  @Test
  void onlyTheAdminActorRegistersWorkers() {
    Answer a =
        t.send(
            "PUT",
            "/workers/worker-x",
            t.mutation(Payloads.HUMAN),
            Payloads.worker("worker-x", "human").toString());
    assertEquals(400, a.status());
    assertEquals("unauthorized_actor", a.errorId());
  }

  @Test
  void anActorOfAnUnregisteredWorkerCannotBeRegistered() {
    Answer a =
        t.send(
            "PUT",
            "/actors/actor-x",
            t.mutation(TestHost.ADMIN),
            Payloads.actor("actor-x", "worker-nowhere", "human", true).toString());
    assertEquals(400, a.status());
    assertEquals("unknown_state", a.errorId());
  }

  @Test
  void aRegistrationForAnotherIdIsRefusedWithPathBodyIdMismatch() {
    Answer a =
        t.send(
            "PUT",
            "/workers/worker-y",
            t.mutation(TestHost.ADMIN),
            Payloads.worker("worker-z", "human").toString());
    assertEquals(400, a.status());
    assertEquals("path_body_id_mismatch", a.errorId());
  }

  @Test
  void anAgentCannotReview() {
    ObjectNode review = Payloads.review("review-by-agent", "req-x", "answer");
    review.put("reviewer_actor_id", Payloads.AGENT);
    review.put("reviewer_worker_id", Payloads.AGENT_WORKER);
    Answer a = t.scopedPost("/reviews", Payloads.AGENT, review);
    assertEquals(400, a.status());
    assertEquals("unauthorized_actor", a.errorId());
  }

  @Test
  void aTimestampExactlyAtTheToleranceIsAccepted() {
    Map<String, String> h = t.scoped(Payloads.AGENT, t.cursor());
    h.put("Jarvis-Request-Timestamp", RequestTimestamp.format(TestHost.START.minusSeconds(300)));
    Answer a =
        t.send(
            "POST",
            "/work-sessions/" + Payloads.WS + "/policy-decisions",
            h,
            Payloads.decision("pd-edge", "summarize", "allow").toString());
    assertEquals(201, a.status(), a.text());
  }

  static void assertProtocolHeaders(Answer a) {
    assertEquals("v0.1", a.header("Jarvis-Protocol-Version").orElse("absent"));
    assertTrue(a.header("Jarvis-Host-Capabilities").orElse("").contains("cursor-headers"));
  }
}
