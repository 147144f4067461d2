package dev.jarvis.host;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Optional;

/**
 * Protocol records by kind and id. WorkSession records are written together with their event by
 * {@link WorkSessionStore#append}; records outside a WorkSession (Workers, Actors, Policies,
 * OutcomeReports) are written here.
 */
public interface RecordStore {

  /** The record, if it exists. */
  Optional<StoredRecord> find(RecordKind kind, String id);

  /** The body of the record, if it exists. */
  default Optional<JsonNode> body(RecordKind kind, String id) {
    return find(kind, id).map(StoredRecord::body);
  }

  /** The records of one kind in one WorkSession, in the order they were first written. */
  List<StoredRecord> inSession(RecordKind kind, String workSessionId);

  /** Writes (or replaces) a record outside any WorkSession. */
  void put(StoredRecord record);
}
