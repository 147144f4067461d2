package dev.jarvis.testkit;

import static dev.jarvis.testkit.StubWorld.AGENT;
import static dev.jarvis.testkit.StubWorld.AGENT_WORKER;
import static dev.jarvis.testkit.StubWorld.HUMAN;
import static dev.jarvis.testkit.StubWorld.HUMAN_WORKER;
import static dev.jarvis.testkit.StubWorld.NOW;
import static dev.jarvis.testkit.StubWorld.SESSION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.canonical.Sha256Hash;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.samples.SampleRecords;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class StubHostBehaviourTest {

  @RegisterExtension final JarvisHostStub host = StubWorld.stub();

  private StubCalls calls;
  private ChainCursor cursor;

  @BeforeEach
  void sessionExists() {
    calls = new StubCalls(host.baseUrl(), StubWorld.CLOCK);
    cursor = StubWorld.sessionAtRevisionOne(calls);
  }

  private StubCalls.Answer recordDecision(String id, ChainCursor at) {
    return calls.call(
        "recordPolicyDecision",
        SESSION,
        AGENT,
        at,
        SampleRecords.policyDecision(id, SESSION, AGENT, NOW));
  }

  @Test
  void genesisCreatesTheSessionAtRevisionOneWithAHostBuiltCreatedEvent() {
    List<ObjectNode> events = host.events(SESSION);
    assertEquals(1, events.size());
    assertEquals("work_session.created", events.get(0).path("type").asText());
    assertEquals(Sha256Hash.GENESIS, events.get(0).path("previous_hash").asText());
    assertTrue(EventChain.verify(events).isEmpty());
    assertEquals(new ChainCursor(1, events.get(0).path("event_hash").asText()), cursor);
    assertEquals("active", host.workSession(SESSION).orElseThrow().path("status").asText());
  }

  @Test
  void everyAnswerCarriesTheProtocolVersionAndCapabilities() {
    StubCalls.Answer read = calls.call("getWorkSession", SESSION, HUMAN, null, null);
    assertEquals(200, read.status());
    assertEquals("v0.1", read.header(JarvisHeaders.PROTOCOL_VERSION));
    assertEquals(
        "cursor-headers, event-log, event-stream, request-inbox, request-read",
        read.header(JarvisHeaders.HOST_CAPABILITIES));
  }

  @Test
  void aScopedMutationAppendsOneHostBuiltEventAndSendsTheNewCursor() {
    StubCalls.Answer answer = recordDecision("pd-1", cursor);
    assertEquals(201, answer.status());
    List<ObjectNode> events = host.events(SESSION);
    assertEquals(2, events.size());
    assertEquals("policy_decision.recorded", events.get(1).path("type").asText());
    assertTrue(EventChain.verify(events).isEmpty());
    assertEquals("2", answer.header("Jarvis-WorkSession-Revision"));
    assertEquals(
        events.get(1).path("event_hash").asText(), answer.header("Jarvis-Last-Event-Hash"));
    assertTrue(PayloadValidator.forSpec().validate("PolicyDecision", answer.body()).isEmpty());
  }

  @Test
  void aStaleRevisionIsRefused() {
    recordDecision("pd-1", cursor);
    StubCalls.Answer stale = recordDecision("pd-2", cursor);
    assertEquals(400, stale.status());
    assertEquals("stale_work_session_revision", stale.errorId());
  }

  @Test
  void aWrongPreviousHashIsRefused() {
    StubCalls.Answer wrong = recordDecision("pd-1", new ChainCursor(1, "sha256:" + "0".repeat(64)));
    assertEquals("invalid_previous_event_hash", wrong.errorId());
  }

  @Test
  void aReplayWithTheSameKeyAndBodyReturnsTheFirstAnswerWithoutANewEvent() {
    Map<String, String> headers = calls.headers("recordPolicyDecision", AGENT, cursor);
    JsonNode body = SampleRecords.policyDecision("pd-1", SESSION, AGENT, NOW);
    StubCalls.Answer first =
        calls.send("recordPolicyDecision", SESSION, headers, body, Duration.ofSeconds(5));
    StubCalls.Answer replay =
        calls.send("recordPolicyDecision", SESSION, headers, body, Duration.ofSeconds(5));
    assertEquals(first.status(), replay.status());
    assertEquals(first.body(), replay.body());
    assertEquals(2, host.events(SESSION).size());
  }

  @Test
  void theSameKeyWithAnotherBodyIsAnIdempotencyMismatch() {
    Map<String, String> headers = calls.headers("recordPolicyDecision", AGENT, cursor);
    calls.send(
        "recordPolicyDecision",
        SESSION,
        headers,
        SampleRecords.policyDecision("pd-1", SESSION, AGENT, NOW),
        Duration.ofSeconds(5));
    StubCalls.Answer other =
        calls.send(
            "recordPolicyDecision",
            SESSION,
            headers,
            SampleRecords.policyDecision("pd-2", SESSION, AGENT, NOW),
            Duration.ofSeconds(5));
    assertEquals("duplicate_idempotency_key_mismatch", other.errorId());
  }

  @ParameterizedTest(name = "missing {0} is refused")
  @EnumSource(value = MissingHeader.class)
  void aScopedMutationMissingAHeaderIsRefusedWithItsErrorId(MissingHeader missing) {
    Map<String, String> headers =
        new LinkedHashMap<>(calls.headers("recordPolicyDecision", AGENT, cursor));
    headers.remove(missing.header);
    StubCalls.Answer answer =
        calls.send(
            "recordPolicyDecision",
            SESSION,
            headers,
            SampleRecords.policyDecision("pd-1", SESSION, AGENT, NOW),
            Duration.ofSeconds(5));
    assertEquals(400, answer.status());
    assertEquals(missing.errorId, answer.errorId());
    assertEquals(missing.errorId, host.receivedViolations().get(0).errorId().getValue());
  }

  enum MissingHeader {
    VERSION(JarvisHeaders.PROTOCOL_VERSION, "missing_protocol_version"),
    ACTOR(JarvisHeaders.ACTOR_ID, "missing_actor"),
    KEY(JarvisHeaders.IDEMPOTENCY_KEY, "missing_idempotency_key"),
    TIMESTAMP(JarvisHeaders.REQUEST_TIMESTAMP, "missing_request_timestamp"),
    REVISION(
        JarvisHeaders.EXPECTED_WORK_SESSION_REVISION, "missing_expected_work_session_revision"),
    PREVIOUS(JarvisHeaders.PREVIOUS_EVENT_HASH, "missing_previous_event_hash");

    final String header;
    final String errorId;

    MissingHeader(String header, String errorId) {
      this.header = header;
      this.errorId = errorId;
    }
  }

  @Test
  void aReadNeedsNoMutationHeaders() {
    StubCalls.Answer read =
        calls.send(
            "getWorkSession",
            SESSION,
            Map.of(JarvisHeaders.PROTOCOL_VERSION, "v0.1", JarvisHeaders.ACTOR_ID, HUMAN),
            null,
            Duration.ofSeconds(5));
    assertEquals(200, read.status());
    assertEquals(1, read.body().path("revision").asInt());
    assertTrue(host.receivedViolations().isEmpty());
  }

  @Test
  void aBodyTheSpecRefusesIsAnsweredWithTheValidatorsViolation() {
    ObjectNode body = SampleRecords.policyDecision("pd-1", SESSION, AGENT, NOW);
    body.remove("reason");
    StubCalls.Answer answer = calls.call("recordPolicyDecision", SESSION, AGENT, cursor, body);
    assertEquals(400, answer.status());
    List<ProtocolViolation> received = host.receivedViolations();
    assertEquals(1, received.size());
    assertEquals(received.get(0).errorId().getValue(), answer.errorId());
    assertEquals(1, host.events(SESSION).size());
  }

  @Test
  void aBodyForAnotherWorkSessionIsAPathBodyMismatch() {
    StubCalls.Answer answer =
        calls.call(
            "recordPolicyDecision",
            SESSION,
            AGENT,
            cursor,
            SampleRecords.policyDecision("pd-1", "ws-other", AGENT, NOW));
    assertEquals("path_body_id_mismatch", answer.errorId());
  }

  @Test
  void aBodyActorOtherThanTheHeaderActorIsAnActorBodyMismatch() {
    StubCalls.Answer answer =
        calls.call(
            "recordPolicyDecision",
            SESSION,
            HUMAN,
            cursor,
            SampleRecords.policyDecision("pd-1", SESSION, AGENT, NOW));
    assertEquals("actor_body_id_mismatch", answer.errorId());
  }

  @Test
  void anAppendedEventMustContinueTheChain() {
    ObjectNode event =
        EventChain.next(
            new ChainCursor(1, "sha256:" + "1".repeat(64)),
            SampleRecords.eventDraft("evt-c1", SESSION, HUMAN, "note.added", NOW));
    StubCalls.Answer answer = calls.call("appendJarvisEvent", SESSION, HUMAN, cursor, event);
    assertEquals("invalid_previous_event_hash", answer.errorId());
    assertEquals(1, host.events(SESSION).size());
  }

  @Test
  void exportIsRefusedUntilTheSessionIsCompletedAndThenReturnsAValidManifest() {
    assertEquals(
        "invalid_export_state",
        calls.call("exportEvidenceManifest", SESSION, HUMAN, null, null).errorId());
    StubCalls.Answer decision = recordDecision("pd-1", cursor);
    ChainCursor now = new ChainCursor(2, decision.header("Jarvis-Last-Event-Hash"));
    String eventId = host.events(SESSION).get(1).path("id").asText();
    StubCalls.Answer contribution =
        calls.call(
            "recordContribution",
            SESSION,
            AGENT,
            now,
            SampleRecords.contribution("contrib-1", SESSION, AGENT_WORKER, AGENT, eventId, NOW));
    now = new ChainCursor(3, contribution.header("Jarvis-Last-Event-Hash"));
    ObjectNode completed =
        EventChain.next(
            now,
            SampleRecords.eventDraft("evt-done", SESSION, HUMAN, "work_session.completed", NOW));
    assertEquals(201, calls.call("appendJarvisEvent", SESSION, HUMAN, now, completed).status());

    StubCalls.Answer export = calls.call("exportEvidenceManifest", SESSION, HUMAN, null, null);
    assertEquals(200, export.status());
    assertTrue(PayloadValidator.forSpec().validate("EvidenceManifest", export.body()).isEmpty());
    assertEquals("contrib-1", export.body().path("contribution_refs").get(0).asText());
    assertEquals(
        completed.path("event_hash").asText(), export.body().path("event_chain_root").asText());
    assertTrue(host.receivedViolations().isEmpty());
  }

  @Test
  void aCompletedSessionTakesNoMoreMutations() {
    ObjectNode completed =
        EventChain.next(
            cursor,
            SampleRecords.eventDraft("evt-done", SESSION, HUMAN, "work_session.completed", NOW));
    calls.call("appendJarvisEvent", SESSION, HUMAN, cursor, completed);
    StubCalls.Answer late =
        recordDecision("pd-1", cursor.advance(completed.path("event_hash").asText()));
    assertEquals("mutation_after_closed", late.errorId());
  }

  @ParameterizedTest(name = "refuseNext({0})")
  @EnumSource(ProtocolErrorId.class)
  void theNextCallCanBeRefusedWithAnyErrorIdAndChangesNothing(ProtocolErrorId errorId) {
    host.refuseNext(errorId);
    StubCalls.Answer refused = recordDecision("pd-1", cursor);
    assertEquals(400, refused.status());
    assertEquals(errorId.getValue(), refused.errorId());
    assertTrue(PayloadValidator.forSpec().validate("ProtocolError", refused.body()).isEmpty());
    assertEquals(1, host.events(SESSION).size());
    assertEquals(201, recordDecision("pd-1", cursor).status());
  }

  @ParameterizedTest(name = "{0} is a transport failure")
  @EnumSource(value = Fault.class, names = "SERVICE_UNAVAILABLE", mode = EnumSource.Mode.EXCLUDE)
  void anInjectedFaultReachesTheClientAsATransportFailureAndChangesNothing(Fault fault) {
    host.faultNext(fault);
    assertThrows(
        IOException.class,
        () ->
            calls.sendOrThrow(
                "recordPolicyDecision",
                SESSION,
                calls.headers("recordPolicyDecision", AGENT, cursor),
                SampleRecords.policyDecision("pd-1", SESSION, AGENT, NOW),
                Duration.ofSeconds(5)));
    assertEquals(1, host.events(SESSION).size());
    assertEquals(201, recordDecision("pd-1", cursor).status());
  }

  @Test
  void anInjectedServiceUnavailableIsA503WithRetryAfter() {
    host.faultNext(Fault.SERVICE_UNAVAILABLE);
    StubCalls.Answer answer = recordDecision("pd-1", cursor);
    assertEquals(503, answer.status());
    assertEquals("1", answer.header("Retry-After"));
    assertEquals(1, host.events(SESSION).size());
  }

  @Test
  void aDelayedAnswerOutlastsAShortClientTimeout() {
    host.delayNext(Duration.ofSeconds(5));
    assertThrows(
        HttpTimeoutException.class,
        () ->
            calls.sendOrThrow(
                "getWorkSession",
                SESSION,
                calls.headers("getWorkSession", HUMAN, null),
                null,
                Duration.ofMillis(200)));
  }

  @Test
  void aPathTheSpecLacksIsA404ProtocolError() throws Exception {
    HttpResponse<String> answer =
        HttpClient.newHttpClient()
            .send(
                java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create(host.baseUrl() + "/nowhere"))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertEquals(404, answer.statusCode());
    assertTrue(answer.body().contains("\"error_id\":\"unknown_state\""), answer.body());
    assertEquals("v0.1", answer.headers().firstValue(JarvisHeaders.PROTOCOL_VERSION).orElseThrow());
    assertEquals("unknown_state", host.receivedViolations().get(0).errorId().getValue());
  }

  @Test
  void aWellBehavedClientLeavesNoReceivedViolations() {
    recordDecision("pd-1", cursor);
    calls.call("getWorkSession", SESSION, HUMAN, null, null);
    assertTrue(host.receivedViolations().isEmpty());
    assertFalse(host.worker(HUMAN_WORKER).isEmpty());
    assertFalse(host.actor(AGENT).isEmpty());
  }
}
