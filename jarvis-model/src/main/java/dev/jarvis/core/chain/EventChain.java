package dev.jarvis.core.chain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.canonical.CanonicalizationException;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.hash.EventHash;
import dev.jarvis.model.ProtocolErrorId;
import java.util.List;
import java.util.Optional;

/**
 * Builds and verifies a WorkSession's event chain.
 *
 * <p>Rules (see {@code docs/protocol-decisions.md}): the first event has {@code sequence} 1 and
 * {@code previous_hash} {@code hash:protocol-genesis}; each next event has the next sequence and
 * the previous event's {@code event_hash} as its {@code previous_hash}; every {@code event_hash} is
 * {@link EventHash#of} the event; all events share one {@code work_session_id}.
 */
public final class EventChain {

  private static final String OBJECT_TYPE = "jarvis_event";

  private EventChain() {}

  /**
   * The next event after {@code cursor}: a copy of {@code draft} with {@code sequence}, {@code
   * previous_hash}, a default {@code canonicalization} (json-c14n, sha256) where absent, and its
   * {@code event_hash}.
   *
   * @throws CanonicalizationException if the draft holds text canonical JSON cannot carry; {@code
   *     toViolation("jarvis_event")} is the refusal
   */
  public static ObjectNode next(ChainCursor cursor, JsonNode draft) {
    if (!draft.isObject()) {
      throw new IllegalArgumentException("a JarvisEvent is a JSON object");
    }
    ObjectNode event = ((ObjectNode) draft).deepCopy();
    event.remove(EventHash.EXCLUDED);
    event.put("sequence", cursor.revision() + 1);
    event.put("previous_hash", cursor.lastEventHash());
    if (!event.has("canonicalization")) {
      event
          .putObject("canonicalization")
          .put("serialization", "json-c14n")
          .put("hash_method", "sha256");
    }
    event.put("event_hash", EventHash.of(event));
    return event;
  }

  /**
   * Checks that {@code event} is the valid next link after {@code cursor}; empty when it is. {@code
   * field} in the violation is a pointer into the event. An event that cannot be hashed is the
   * canonicalizer's refusal ({@code unknown_state} at the offending value), never an exception.
   */
  public static Optional<ProtocolViolation> checkNext(ChainCursor cursor, JsonNode event) {
    return checkLink(cursor, event, "");
  }

  /** Verifies a whole chain from genesis. */
  public static Optional<ChainBreak> verify(List<? extends JsonNode> events) {
    return verify(ChainCursor.GENESIS, events);
  }

  /** Verifies events that continue the chain after {@code start}. */
  public static Optional<ChainBreak> verify(ChainCursor start, List<? extends JsonNode> events) {
    ChainCursor cursor = start;
    String sessionId = null;
    for (int i = 0; i < events.size(); i++) {
      JsonNode event = events.get(i);
      String at = "/" + i;
      Optional<ProtocolViolation> broken = checkLink(cursor, event, at);
      if (broken.isEmpty() && sessionId != null) {
        String thisSession = event.path("work_session_id").asText();
        if (!sessionId.equals(thisSession)) {
          broken =
              Optional.of(
                  ProtocolViolation.of(
                      ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH,
                      OBJECT_TYPE,
                      at + "/work_session_id",
                      "event belongs to WorkSession '"
                          + thisSession
                          + "', the chain to '"
                          + sessionId
                          + "'"));
        }
      }
      if (broken.isPresent()) {
        return Optional.of(new ChainBreak(i, broken.get()));
      }
      sessionId = event.path("work_session_id").asText();
      cursor = cursor.advance(event.path("event_hash").asText());
    }
    return Optional.empty();
  }

  private static Optional<ProtocolViolation> checkLink(
      ChainCursor cursor, JsonNode event, String at) {
    if (!event.isObject()) {
      return Optional.of(
          ProtocolViolation.of(
              ProtocolErrorId.INVALID_EVENT_HASH,
              OBJECT_TYPE,
              at.isEmpty() ? "/" : at,
              "an event is a JSON object"));
    }
    JsonNode previous = event.path("previous_hash");
    if (!previous.isTextual() || !previous.asText().equals(cursor.lastEventHash())) {
      return Optional.of(
          ProtocolViolation.of(
              ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH,
              OBJECT_TYPE,
              at + "/previous_hash",
              "previous_hash is "
                  + describe(previous)
                  + ", the chain's last event hash is '"
                  + cursor.lastEventHash()
                  + "'"));
    }
    JsonNode sequence = event.path("sequence");
    long expected = cursor.revision() + 1;
    if (!sequence.canConvertToExactIntegral()
        || sequence.asLong() != expected
        || !sequence.isNumber()) {
      return Optional.of(
          ProtocolViolation.of(
              ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH,
              OBJECT_TYPE,
              at + "/sequence",
              "sequence is " + describe(sequence) + ", the next in the chain is " + expected));
    }
    JsonNode claimed = event.path("event_hash");
    String recomputed;
    try {
      recomputed = EventHash.of(event);
    } catch (CanonicalizationException e) {
      return Optional.of(e.toViolation(OBJECT_TYPE, at)); // no hash can match an unhashable event
    }
    if (!claimed.isTextual() || !claimed.asText().equals(recomputed)) {
      return Optional.of(
          ProtocolViolation.of(
              ProtocolErrorId.INVALID_EVENT_HASH,
              OBJECT_TYPE,
              at + "/event_hash",
              "event_hash is "
                  + describe(claimed)
                  + ", the event's content hashes to '"
                  + recomputed
                  + "'"));
    }
    return Optional.empty();
  }

  private static String describe(JsonNode value) {
    return value.isMissingNode()
        ? "absent"
        : value.isTextual() ? "'" + value.asText() + "'" : value.toString();
  }
}
