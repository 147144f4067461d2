package dev.jarvis.host.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.host.StoredRecord;
import java.util.List;
import java.util.Optional;

/**
 * What an accepted WorkSession mutation does, decided by its rules before anything is written: the
 * one event it appends, the records it writes with that event, and the WorkSession's next status.
 *
 * @param event the client's event to append verbatim (appendJarvisEvent), or empty for a host-built
 *     event of {@code eventType} about {@code objectType}/{@code objectId}
 * @param eventType the type of the host-built event
 * @param objectType the event payload's {@code object_type}
 * @param objectId the event payload's {@code object_id}
 * @param records records written together with the event
 * @param nextStatus the WorkSession status after the event, if it changes
 * @param responseBody the body of the success response
 * @param listedIn the WorkSession snapshot's array of refs that lists {@code objectId} after the
 *     event ({@code learning_record_refs}); empty for most operations
 */
record Effect(
    Optional<JsonNode> event,
    String eventType,
    String objectType,
    String objectId,
    List<StoredRecord> records,
    Optional<String> nextStatus,
    byte[] responseBody,
    Optional<String> listedIn) {

  /** An effect that lists its object in no snapshot array. */
  Effect(
      Optional<JsonNode> event,
      String eventType,
      String objectType,
      String objectId,
      List<StoredRecord> records,
      Optional<String> nextStatus,
      byte[] responseBody) {
    this(
        event,
        eventType,
        objectType,
        objectId,
        records,
        nextStatus,
        responseBody,
        Optional.empty());
  }

  /** The same effect, its object listed in the snapshot's array {@code field}. */
  Effect listedIn(String field) {
    return new Effect(
        event,
        eventType,
        objectType,
        objectId,
        records,
        nextStatus,
        responseBody,
        Optional.of(field));
  }

  /** A host-built event recording one record, answered with the record as it travelled. */
  static Effect recording(
      String eventType,
      String objectType,
      StoredRecord record,
      Optional<String> nextStatus,
      byte[] responseBody) {
    return new Effect(
        Optional.empty(),
        eventType,
        objectType,
        record.id(),
        List.of(record),
        nextStatus,
        responseBody);
  }
}
