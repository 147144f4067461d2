package dev.jarvis.host.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.RecordStore;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.StoredSession;
import dev.jarvis.host.WorkSessionStore;
import java.util.List;
import java.util.Optional;

/**
 * A WorkSession as the rules see it while its lock is held: the stored session, its records and
 * events. Reads only; the rules answer with an {@link Effect}.
 */
final class SessionView {

  private final StoredSession session;
  private final RecordStore records;
  private final WorkSessionStore sessions;

  private final Optional<JsonNode> defaultPolicy;

  SessionView(
      StoredSession session,
      RecordStore records,
      WorkSessionStore sessions,
      Optional<JsonNode> defaultPolicy) {
    this.session = session;
    this.records = records;
    this.sessions = sessions;
    this.defaultPolicy = defaultPolicy;
  }

  StoredSession session() {
    return session;
  }

  String id() {
    return session.id();
  }

  /** A record of this WorkSession. */
  Optional<StoredRecord> record(RecordKind kind, String id) {
    return records.find(kind, id).filter(r -> r.workSessionId().equals(Optional.of(id())));
  }

  /** All records of one kind in this WorkSession. */
  List<StoredRecord> records(RecordKind kind) {
    return records.inSession(kind, id());
  }

  /** A record outside WorkSessions (Actor, Worker, Policy). */
  Optional<JsonNode> global(RecordKind kind, String id) {
    return records.body(kind, id);
  }

  /** The chain, in order. */
  List<JsonNode> events() {
    return sessions.events(id());
  }

  /** Whether the chain holds an event with this id. */
  boolean hasEvent(String eventId) {
    for (JsonNode event : sessions.events(id())) {
      if (eventId.equals(event.path("id").asText())) {
        return true;
      }
    }
    return false;
  }

  /** The WorkSession's Policy, or the host's default Policy when it holds none of that id. */
  Optional<JsonNode> policy() {
    return records
        .body(RecordKind.POLICY, session.snapshot().path("policy_id").asText())
        .or(() -> defaultPolicy);
  }
}
