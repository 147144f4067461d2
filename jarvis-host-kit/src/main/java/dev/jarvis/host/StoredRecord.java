package dev.jarvis.host;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.chain.ChainCursor;
import java.util.Objects;
import java.util.Optional;

/**
 * One protocol record as stored.
 *
 * @param kind what it is
 * @param id its Jarvis id
 * @param workSessionId the WorkSession it belongs to, if any
 * @param body the record as it travelled (or as the host last updated it)
 * @param recordedAt where the chain stood right after the event that recorded it: a Request's
 *     {@code request_revision} and {@code request_event_hash} are read from here
 */
public record StoredRecord(
    RecordKind kind,
    String id,
    Optional<String> workSessionId,
    JsonNode body,
    Optional<ChainCursor> recordedAt) {

  public StoredRecord {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(workSessionId, "workSessionId");
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(recordedAt, "recordedAt");
  }

  /** A record outside any WorkSession (Worker, Actor, Policy, OutcomeReport). */
  public static StoredRecord global(RecordKind kind, String id, JsonNode body) {
    return new StoredRecord(kind, id, Optional.empty(), body, Optional.empty());
  }

  /** A WorkSession record, before the event that records it exists. */
  public static StoredRecord inSession(
      RecordKind kind, String id, String workSessionId, JsonNode body) {
    return new StoredRecord(kind, id, Optional.of(workSessionId), body, Optional.empty());
  }

  /** The same record, anchored at the chain position that recorded it. */
  public StoredRecord recordedAt(ChainCursor cursor) {
    return new StoredRecord(kind, id, workSessionId, body, Optional.of(cursor));
  }
}
