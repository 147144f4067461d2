package dev.jarvis.store.jdbc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.host.ChainWrite;
import dev.jarvis.host.IdempotencyStore;
import dev.jarvis.host.StoredResponse;
import java.nio.charset.StandardCharsets;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * How an idempotency record's answer is stored (migration V13): whole, or — when its body is, byte
 * for byte, the event the same unit of work stores, as appendJarvisEvent's 201 is — as a reference
 * to that event row ({@code event_work_session_id}, {@code event_sequence}) with an empty body and
 * without the two cursor headers, which the event gives back exactly: {@code
 * Jarvis-WorkSession-Revision} is its sequence, {@code Jarvis-Last-Event-Hash} its {@code
 * event_hash}. The event is then stored once instead of twice. A replay rebuilds the answer the
 * first attempt sent, byte for byte and header for header: the reference is taken only when the
 * rebuild gives exactly that answer back, and event rows are never rewritten nor deleted. Records
 * stored whole (every record before V13, and every answer that is not its unit's event) are read as
 * they were.
 */
final class StoredAnswer {

  static final String REVISION = JarvisHeaders.WORK_SESSION_REVISION;
  static final String LAST_EVENT_HASH = JarvisHeaders.LAST_EVENT_HASH;

  /** The event member the {@code Jarvis-Last-Event-Hash} header repeats. */
  private static final String EVENT_HASH = "event_hash";

  /**
   * The event a unit of work stores, with its text exactly as it goes into {@code jarvis_event}:
   * written once per unit and shared by the event's row and the claim's comparison.
   */
  record UnitEvent(String workSessionId, long sequence, JsonNode event, String text) {

    static Optional<UnitEvent> of(Optional<ChainWrite> chain) {
      if (chain.isEmpty()) {
        return Optional.empty();
      }
      ChainWrite write = chain.get();
      JsonNode event;
      if (write instanceof ChainWrite.Genesis genesis) {
        event = genesis.firstEvent();
      } else if (write instanceof ChainWrite.Append append) {
        event = append.event();
      } else {
        return Optional.empty();
      }
      return Optional.of(
          new UnitEvent(
              write.workSessionId(),
              event.path("sequence").asLong(),
              event,
              JsonText.write(event)));
    }
  }

  /**
   * An answer in its stored form: the headers' text, the body (empty for a reference) and whether
   * it refers to the unit's event.
   */
  record Form(String headers, byte[] body, boolean refersToEvent) {}

  private StoredAnswer() {}

  /** How {@code answer} is stored in a unit that stores {@code event}. */
  static Form of(StoredResponse answer, Optional<UnitEvent> event) {
    Map<String, String> headers = answer.headers();
    if (event.isPresent() && isTheEvent(answer, headers, event.get())) {
      Map<String, String> rest = new LinkedHashMap<>(headers);
      rest.remove(REVISION);
      rest.remove(LAST_EVENT_HASH);
      return new Form(JsonText.write(rest), new byte[0], true);
    }
    return new Form(JsonText.write(headers), answer.body(), false);
  }

  /**
   * The answer a stored record gives back.
   *
   * @param eventSequence the referenced event's sequence, empty for an answer stored whole
   * @param eventText the referenced event row's text, read with the record (null if the row is
   *     missing, which no store operation allows: then the record is refused rather than answered
   *     with something else than the first answer)
   */
  static StoredResponse read(
      int status, String headers, byte[] body, Optional<Long> eventSequence, String eventText) {
    if (eventSequence.isEmpty()) {
      return new StoredResponse(status, JsonText.headers(headers), body);
    }
    if (eventText == null) {
      throw new JdbcStoreException(
          "an idempotency record refers to event " + eventSequence.get() + ", which is missing",
          null);
    }
    Map<String, String> rebuilt = JsonText.headers(headers);
    rebuilt.put(REVISION, Long.toString(eventSequence.get()));
    rebuilt.put(LAST_EVENT_HASH, JsonText.read(eventText).path(EVENT_HASH).asText());
    return new StoredResponse(status, rebuilt, eventText.getBytes(StandardCharsets.UTF_8));
  }

  /** The referenced event's sequence in column {@code at} of {@code r}: empty when NULL. */
  /**
   * The idempotency record in seven columns from {@code first} on, in the order both the store's
   * read and {@code jarvis_commit}'s answer give them: fingerprint, status, headers, body, {@code
   * stored_at_micros}, {@code event_sequence} and the text of the event it refers to (null if
   * none).
   */
  static IdempotencyStore.Entry entry(ResultSet r, int first) throws SQLException {
    return new IdempotencyStore.Entry(
        r.getString(first),
        read(
            r.getInt(first + 1),
            r.getString(first + 2),
            r.getBytes(first + 3),
            sequence(r, first + 5),
            r.getString(first + 6)),
        IdempotencyColumns.instant(r.getLong(first + 4)));
  }

  static Optional<Long> sequence(ResultSet r, int at) throws SQLException {
    long sequence = r.getLong(at);
    return r.wasNull() ? Optional.empty() : Optional.of(sequence);
  }

  /**
   * Whether {@link #read} gives {@code answer} back from {@code event}: the body is the event's
   * stored text and both cursor headers are what the event says.
   */
  private static boolean isTheEvent(
      StoredResponse answer, Map<String, String> headers, UnitEvent event) {
    JsonNode hash = event.event().path(EVENT_HASH);
    return hash.isTextual()
        && Long.toString(event.sequence()).equals(headers.get(REVISION))
        && hash.asText().equals(headers.get(LAST_EVENT_HASH))
        && Arrays.equals(answer.body(), event.text().getBytes(StandardCharsets.UTF_8));
  }
}
