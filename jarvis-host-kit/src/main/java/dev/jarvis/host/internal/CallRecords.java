package dev.jarvis.host.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.RecordStore;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The records outside WorkSessions (Actors, Workers, Policies) as one call reads them: each at most
 * once, the acting Actor not at all when the request guard read it already ({@link
 * ProtocolCall#actorRecord}). A store read is a database round trip, and the rules of one call ask
 * for the acting Actor up to three times. It lives for one call only, never across calls: another
 * host instance sharing the store may change a record between them. Not thread-safe: one call is
 * handled on one thread.
 */
final class CallRecords {

  private final RecordStore records;
  private final Map<String, Optional<JsonNode>> read = new HashMap<>();

  /** The reads of the host's own work, with no call and no acting Actor (an expiry sweep). */
  CallRecords(RecordStore records) {
    this.records = records;
  }

  CallRecords(RecordStore records, ProtocolCall call) {
    this.records = records;
    call.actorRecord()
        .ifPresent(actor -> read.put(key(RecordKind.ACTOR, call.actorId()), Optional.of(actor)));
  }

  /** The body of the record outside any WorkSession, read from the store the first time. */
  Optional<JsonNode> body(RecordKind kind, String id) {
    String key = key(kind, id);
    Optional<JsonNode> body = read.get(key);
    if (body == null) {
      body = records.body(kind, id);
      read.put(key, body);
    }
    return body;
  }

  private static String key(RecordKind kind, String id) {
    return kind.name() + ':' + id;
  }
}
