package dev.jarvis.host.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.RecordStore;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.StoredSession;
import dev.jarvis.host.WorkSessionStore;
import dev.jarvis.model.Actor;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.WorkSession;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A WorkSession as the rules see it while its lock is held: the stored session, its records and
 * events. Reads only; the rules answer with an {@link Effect}.
 */
final class SessionView {

  private final StoredSession session;
  private final RecordStore records;
  private final CallRecords globals;
  private final WorkSessionStore sessions;

  private final Optional<JsonNode> defaultPolicy;
  // Event ids whose presence was read with this very chain state, and those of them it holds.
  private final Set<String> askedEvents;
  private final Set<String> heldEvents;

  SessionView(
      StoredSession session,
      RecordStore records,
      CallRecords globals,
      WorkSessionStore sessions,
      Optional<JsonNode> defaultPolicy) {
    this(session, records, globals, sessions, defaultPolicy, Set.of(), Set.of());
  }

  /**
   * A view that answers {@link #hasEvent} for {@code askedEvents} from what was read together with
   * {@code session}: {@code heldEvents}, those of them its chain holds.
   */
  SessionView(
      StoredSession session,
      RecordStore records,
      CallRecords globals,
      WorkSessionStore sessions,
      Optional<JsonNode> defaultPolicy,
      Set<String> askedEvents,
      Set<String> heldEvents) {
    this.session = session;
    this.records = records;
    this.globals = globals;
    this.sessions = sessions;
    this.defaultPolicy = defaultPolicy;
    this.askedEvents = askedEvents;
    this.heldEvents = heldEvents;
  }

  StoredSession session() {
    return session;
  }

  String id() {
    return session.id();
  }

  /** A record of this WorkSession. */
  Optional<StoredRecord> record(RecordKind kind, String id) {
    return records.find(kind, id(), id);
  }

  /** All records of one kind in this WorkSession. */
  List<StoredRecord> records(RecordKind kind) {
    return records.inSession(kind, id());
  }

  /** The records of one kind in this WorkSession whose {@code status} is one of these. */
  List<StoredRecord> records(RecordKind kind, Set<String> statuses) {
    return records.inSession(kind, id(), statuses);
  }

  /** A record outside WorkSessions (Actor, Worker, Policy), as this call reads it. */
  Optional<JsonNode> global(RecordKind kind, String id) {
    return globals.body(kind, id);
  }

  /** The type of a registered Actor. */
  Optional<ActorType> actorType(String actorId) {
    return global(RecordKind.ACTOR, actorId).flatMap(Membership::typeOf);
  }

  /** The Worker of a registered Actor. */
  Optional<String> workerOf(String actorId) {
    return global(RecordKind.ACTOR, actorId)
        .map(a -> a.path(Actor.JSON_PROPERTY_WORKER_ID).asText());
  }

  /** Whether an Actor is an AgentWorker's agent Actor (the writes a Takeover holds back). */
  boolean isAgent(String actorId) {
    return actorType(actorId).filter(ActorType.AGENT::equals).isPresent();
  }

  /** The Requests of this WorkSession still waiting for a human, in creation order. */
  List<StoredRecord> openRequests() {
    return records(RecordKind.REQUEST, RequestLifecycle.OPEN_STATUSES);
  }

  /** The id the next host-built event of this WorkSession gets. */
  String nextEventId() {
    return HostEventIds.eventId(id(), session.cursor().revision() + 1);
  }

  /** The chain, in order. */
  List<JsonNode> events() {
    return sessions.events(id());
  }

  /** Whether the chain holds an event with this id. */
  boolean hasEvent(String eventId) {
    if (askedEvents.contains(eventId)) {
      return heldEvents.contains(eventId);
    }
    return sessions.event(id(), eventId).isPresent();
  }

  /** How many events of the chain name {@code ref} in {@code payload.evidence_refs}. */
  long countCiting(String ref) {
    return sessions.countCiting(id(), ref);
  }

  /** The WorkSession's Policy, or the host's default Policy when it holds none of that id. */
  Optional<JsonNode> policy() {
    return global(
            RecordKind.POLICY,
            session.snapshot().path(WorkSession.JSON_PROPERTY_POLICY_ID).asText())
        .or(() -> defaultPolicy);
  }
}
