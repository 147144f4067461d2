package dev.jarvis.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.samples.SampleRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class RecordedExchangesTest {

  private static final String NOW = "2026-06-12T18:00:00Z";
  private static final String ACTOR = "actor-1";
  private static final String HASH = "sha256:" + "a".repeat(64);

  @TempDir Path dir;

  /** A correct exchange and the ways a recorded exchange can break the protocol. */
  enum Recording {
    ACCEPTED_REGISTRATION(true, e -> {}),
    REFUSED_FOR_THE_MISSING_ACTOR(true, e -> refusedForMissingActor(e, "missing_actor")),
    ACCEPTED_EVENT_WITH_MATCHING_CURSOR_HEADERS(true, RecordedExchangesTest::acceptedEvent),
    ANSWER_WITHOUT_PROTOCOL_VERSION(
        false,
        e -> headers(e.withObjectProperty("response")).remove(JarvisHeaders.PROTOCOL_VERSION)),
    SUCCESS_BODY_THE_SPEC_REFUSES(
        false, e -> ((ObjectNode) e.withObjectProperty("response").get("body")).remove("role")),
    ACCEPTED_REQUEST_BODY_THE_SPEC_REFUSES(
        false, e -> ((ObjectNode) e.withObjectProperty("request").get("body")).remove("role")),
    REFUSED_WITH_ANOTHER_ERROR_ID(false, e -> refusedForMissingActor(e, "stale_request_timestamp")),
    REFUSED_WITH_A_STATUS_OTHER_THAN_400(
        false,
        e -> {
          refusedForMissingActor(e, "missing_actor");
          e.withObjectProperty("response").put("status", 409);
        }),
    UNKNOWN_OPERATION(false, e -> e.put("operation_id", "deleteEverything")),
    ACCEPTED_CLIENT_GENESIS_EVENT(false, e -> acceptedEvent(e, "work_session.created", NOW)),
    ACCEPTED_EVENT_STAMPED_AN_HOUR_BEFORE_ITS_REQUEST(
        false, e -> acceptedEvent(e, "note.recorded", "2026-06-12T17:00:00Z")),
    CURSOR_HEADER_AT_THE_WRONG_REVISION(
        false,
        e -> {
          acceptedEvent(e);
          headers(e.withObjectProperty("response")).put("Jarvis-WorkSession-Revision", "7");
        });

    final boolean conforms;
    final Consumer<ObjectNode> change;

    Recording(boolean conforms, Consumer<ObjectNode> change) {
      this.conforms = conforms;
      this.change = change;
    }
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Recording.class)
  void eachRecordedExchangeIsJudgedAgainstTheSpec(Recording recording) throws Exception {
    ObjectNode exchange = registration();
    recording.change.accept(exchange);
    write("exchange.json", exchange);
    ConformanceReport report = judge();
    assertEquals(1, report.results().size());
    assertEquals(recording.conforms, report.passed(), report.results().get(0).line());
  }

  @Test
  void anEmptyDirectoryIsAFailureNotAPass() {
    assertFalse(judge().passed());
  }

  @Test
  void everyJsonFileIsOneCheckInFileNameOrder() throws Exception {
    write("b.json", registration());
    write("a.json", registration());
    Files.writeString(dir.resolve("notes.txt"), "not an exchange");
    ConformanceReport report = judge();
    assertEquals(2, report.results().size());
    assertTrue(report.results().get(0).name().startsWith("a.json (registerWorker)"));
    assertTrue(report.passed());
  }

  private ConformanceReport judge() {
    return ConformanceSuite.run(ConformanceConfig.recorded(dir).clock(Fixtures.CLOCK).build());
  }

  private void write(String name, JsonNode exchange) throws Exception {
    Files.write(dir.resolve(name), JarvisJson.mapper().writeValueAsBytes(exchange));
  }

  private static ObjectNode registration() {
    ObjectNode exchange = JsonNodeFactory.instance.objectNode();
    exchange.put("operation_id", "registerWorker");
    ObjectNode request = exchange.putObject("request");
    ObjectNode headers = request.putObject("headers");
    headers.put(JarvisHeaders.PROTOCOL_VERSION, "v0.1");
    headers.put(JarvisHeaders.ACTOR_ID, ACTOR);
    headers.put(JarvisHeaders.IDEMPOTENCY_KEY, "key-1");
    headers.putArray(JarvisHeaders.REQUEST_TIMESTAMP).add(NOW);
    request.set("body", SampleRecords.worker("worker-1", "human"));
    ObjectNode response = exchange.putObject("response");
    response.put("status", 200);
    response.putObject("headers").put(JarvisHeaders.PROTOCOL_VERSION, "v0.1");
    response.set("body", SampleRecords.worker("worker-1", "human"));
    return exchange;
  }

  private static void refusedForMissingActor(ObjectNode exchange, String errorId) {
    headers(exchange.withObjectProperty("request")).remove(JarvisHeaders.ACTOR_ID);
    ObjectNode response = exchange.withObjectProperty("response");
    response.put("status", 400);
    response.set(
        "body",
        JarvisJson.mapper()
            .valueToTree(
                ProtocolViolation.header(
                        ProtocolErrorId.fromValue(errorId), JarvisHeaders.ACTOR_ID, "absent")
                    .toProtocolError("trace:1")));
  }

  private static void acceptedEvent(ObjectNode exchange) {
    acceptedEvent(exchange, "note.recorded", NOW);
  }

  private static void acceptedEvent(ObjectNode exchange, String type, String timestamp) {
    ObjectNode event =
        EventChain.next(
            new ChainCursor(3, HASH),
            SampleRecords.eventDraft("evt-4", "ws-1", ACTOR, type, timestamp));
    exchange.put("operation_id", "appendJarvisEvent");
    ObjectNode request = exchange.withObjectProperty("request");
    headers(request).put(JarvisHeaders.EXPECTED_WORK_SESSION_REVISION, "3");
    headers(request).put(JarvisHeaders.PREVIOUS_EVENT_HASH, HASH);
    request.set("body", event);
    ObjectNode response = exchange.withObjectProperty("response");
    response.put("status", 201);
    headers(response).put("Jarvis-WorkSession-Revision", "4");
    headers(response).put("Jarvis-Last-Event-Hash", event.path("event_hash").asText());
    response.set("body", event);
  }

  private static ObjectNode headers(ObjectNode requestOrResponse) {
    return (ObjectNode) requestOrResponse.get("headers");
  }
}
