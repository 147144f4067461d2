package dev.jarvis.core.chain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.canonical.Sha256Hash;
import dev.jarvis.core.hash.EventHash;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.ProtocolErrorId;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class EventChainTest {

  private static final ObjectMapper MAPPER = JarvisJson.mapper();

  static ObjectNode draft(int n) {
    ObjectNode draft = MAPPER.createObjectNode();
    draft.put("id", "event-" + n);
    draft.put("type", n == 1 ? "work_session.created" : "policy_decision.recorded");
    draft.put("work_session_id", "ws-1");
    draft.put("actor_id", "actor-agent-1");
    draft.put("timestamp", "2026-06-12T18:0" + n + ":00.500Z");
    draft.putObject("payload").put("object_type", "policy_decision").put("action", "recorded");
    return draft;
  }

  static List<JsonNode> chainOf(int length) {
    List<JsonNode> events = new ArrayList<>();
    ChainCursor cursor = ChainCursor.GENESIS;
    for (int n = 1; n <= length; n++) {
      ObjectNode event = EventChain.next(cursor, draft(n));
      events.add(event);
      cursor = cursor.advance(event.get("event_hash").asText());
    }
    return events;
  }

  @Test
  void aBuiltChainStartsAtGenesisAndVerifies() {
    List<JsonNode> events = chainOf(5);
    assertEquals(Sha256Hash.GENESIS, events.get(0).get("previous_hash").asText());
    assertEquals(1, events.get(0).get("sequence").asInt());
    assertEquals(events.get(3).get("event_hash"), events.get(4).get("previous_hash"));
    assertEquals(Optional.empty(), EventChain.verify(events));
  }

  @Test
  void builtEventsBindIntoTheModel() throws Exception {
    JarvisEvent event = MAPPER.treeToValue(chainOf(1).get(0), JarvisEvent.class);
    assertEquals(1, event.getSequence());
  }

  @Test
  void theHashIsOfTheJsonAsItTravelledNotOfAReserialisedModel() throws Exception {
    JsonNode travelled = chainOf(1).get(0);
    JsonNode reserialised = MAPPER.valueToTree(MAPPER.treeToValue(travelled, JarvisEvent.class));
    // The model writes 18:01:00.5Z for 18:01:00.500Z: a different text, so a different hash.
    assertTrue(!travelled.equals(reserialised));
    assertEquals(travelled.get("event_hash").asText(), EventHash.of(travelled));
  }

  @Test
  void theSignatureEnvelopeIsNotCoveredByTheHash() {
    ObjectNode event = (ObjectNode) chainOf(1).get(0);
    String before = EventHash.of(event);
    event.put("actor_signature", "sig:abc").put("signing_key_ref", "key:1");
    assertEquals(before, EventHash.of(event));
    assertEquals(Optional.empty(), EventChain.verify(List.of(event)));
  }

  static Stream<Arguments> tampering() {
    return Stream.of(
        Arguments.of(
            "payload changed after hashing",
            (Consumer<List<JsonNode>>)
                events -> ((ObjectNode) events.get(2).get("payload")).put("action", "forged"),
            2,
            ProtocolErrorId.INVALID_EVENT_HASH,
            "/2/event_hash"),
        Arguments.of(
            "an event removed",
            (Consumer<List<JsonNode>>) events -> events.remove(1),
            1,
            ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH,
            "/1/previous_hash"),
        Arguments.of(
            "two events swapped",
            (Consumer<List<JsonNode>>) events -> events.add(3, events.remove(2)),
            2,
            ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH,
            "/2/previous_hash"),
        Arguments.of(
            "first event not linked to genesis",
            (Consumer<List<JsonNode>>) events -> events.remove(0),
            0,
            ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH,
            "/0/previous_hash"),
        Arguments.of(
            "sequence skips",
            (Consumer<List<JsonNode>>) events -> ((ObjectNode) events.get(3)).put("sequence", 9),
            3,
            ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH,
            "/3/sequence"),
        Arguments.of(
            "event of another WorkSession",
            (Consumer<List<JsonNode>>)
                events -> events.set(4, rehashed(events.get(4), "work_session_id", "ws-2")),
            4,
            ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH,
            "/4/work_session_id"),
        Arguments.of(
            "event_hash missing",
            (Consumer<List<JsonNode>>) events -> ((ObjectNode) events.get(0)).remove("event_hash"),
            0,
            ProtocolErrorId.INVALID_EVENT_HASH,
            "/0/event_hash"));
  }

  private static JsonNode rehashed(JsonNode event, String field, String value) {
    ObjectNode changed = ((ObjectNode) event).deepCopy().put(field, value);
    changed.put("event_hash", EventHash.of(changed));
    return changed;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("tampering")
  void verificationNamesTheFirstBrokenLinkAndItsErrorId(
      String why,
      Consumer<List<JsonNode>> tamper,
      int index,
      ProtocolErrorId errorId,
      String field) {
    List<JsonNode> events = new ArrayList<>(chainOf(5));
    tamper.accept(events);
    ChainBreak broken = EventChain.verify(events).orElseThrow();
    assertEquals(index, broken.index(), why);
    assertEquals(errorId, broken.violation().errorId(), why);
    assertEquals(field, broken.violation().field(), why);
  }

  @Test
  void checkNextAcceptsOnlyTheEventThatContinuesTheCursor() {
    List<JsonNode> events = chainOf(3);
    ChainCursor afterTwo = new ChainCursor(2, events.get(1).get("event_hash").asText());
    assertEquals(Optional.empty(), EventChain.checkNext(afterTwo, events.get(2)));
    assertEquals(
        ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH,
        EventChain.checkNext(ChainCursor.GENESIS, events.get(2)).orElseThrow().errorId());
  }
}
