package dev.jarvis.client.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.JarvisInvalidResponseException;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.hash.EventHash;
import dev.jarvis.model.JarvisEvent;
import java.util.Optional;

/**
 * The end of one WorkSession's chain as far as this reader has verified it: each further event is
 * believed only if it is the next link ({@link EventChain#checkNext}: its sequence, its {@code
 * previous_hash}, its recomputed {@code event_hash}) and belongs to the WorkSession. Not
 * thread-safe: one reader advances it.
 */
final class VerifiedChain {

  private final String workSessionId;
  private ChainCursor cursor;

  VerifiedChain(String workSessionId, ChainCursor start) {
    this.workSessionId = workSessionId;
    this.cursor = start;
  }

  /**
   * A chain that starts after event {@code event}, learned from a page read: its own hash must hold
   * (the link before it is not checked, being before the start) and it must be the WorkSession's
   * event of sequence {@code sequence}.
   */
  static VerifiedChain startingAt(String workSessionId, long sequence, JsonNode event) {
    VerifiedChain chain = new VerifiedChain(workSessionId, ChainCursor.GENESIS);
    chain.belongs(event, "/events/0");
    if (event.path("sequence").asLong(-1) != sequence) {
      throw new JarvisInvalidResponseException(
          200,
          "/events/0/sequence",
          "asked for event " + sequence + ", the host answered " + event.path("sequence"));
    }
    String hash = event.path(JarvisEvent.JSON_PROPERTY_EVENT_HASH).asText();
    if (!hash.equals(EventHash.of(event))) {
      throw new JarvisInvalidResponseException(
          200, "/events/0/event_hash", "event " + sequence + " does not hash to its event_hash");
    }
    chain.cursor = new ChainCursor(sequence, hash);
    return chain;
  }

  ChainCursor cursor() {
    return cursor;
  }

  /** The last sequence verified; 0 at genesis. */
  long sequence() {
    return cursor.revision();
  }

  /**
   * Verifies {@code event} as the next link and advances past it.
   *
   * @param where a pointer to the event in the answer, for the failure
   * @throws JarvisInvalidResponseException if it is not the next link of this WorkSession
   */
  void advance(JsonNode event, String where) {
    belongs(event, where);
    Optional<ProtocolViolation> broken = EventChain.checkNext(cursor, event);
    if (broken.isPresent()) {
      throw new JarvisInvalidResponseException(
          200,
          where + broken.get().field(),
          "the event log breaks the chain after revision "
              + cursor.revision()
              + ": "
              + broken.get().reason());
    }
    cursor = cursor.advance(event.path(JarvisEvent.JSON_PROPERTY_EVENT_HASH).asText());
  }

  private void belongs(JsonNode event, String where) {
    if (!workSessionId.equals(event.path(JarvisEvent.JSON_PROPERTY_WORK_SESSION_ID).asText())) {
      throw new JarvisInvalidResponseException(
          200,
          where + "/work_session_id",
          "an event of another WorkSession in the log of '" + workSessionId + "'");
    }
  }
}
