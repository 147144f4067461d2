package dev.jarvis.store.tck;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.host.ActorWithWorker;
import dev.jarvis.host.AppendListener;
import dev.jarvis.host.CommitResult;
import dev.jarvis.host.HostStores;
import dev.jarvis.host.InboxEntry;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.SessionWithRecords;
import dev.jarvis.host.StoreBackend;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.StoredSession;
import dev.jarvis.host.UnitOfWork;
import dev.jarvis.host.notify.NotificationOutbox;
import dev.jarvis.model.WorkSessionStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A correct store (the in-memory one) with one deliberate defect, for proving the TCK catches it:
 * each {@link Defect} breaks one rule of {@link StoreRule}, and {@link BrokenStoresTest} asserts
 * that running the TCK against it fails exactly that rule. Everything else is delegated unchanged.
 */
final class BrokenStore implements StoreBackend {

  /** The defect, and the one rule it breaks. */
  enum Defect {
    /** A page of events holds one event more than the limit asked for. */
    PAGES_PAST_THE_LIMIT(StoreRule.READ_1),
    /** Finds idempotency records whatever their age: an expired key is still taken. */
    FINDS_EXPIRED_KEYS(StoreRule.RETAIN_1),
    /** Deletes idempotency records up to a day younger than asked: live ones with them. */
    PURGES_LIVE_KEYS(StoreRule.RETAIN_2),
    /**
     * Runs a unit's step after the unit committed, not inside it: a failing step cannot undo it.
     */
    RUNS_THE_STEP_AFTER_COMMIT(StoreRule.STEP_4),
    /** Answers a WorkSession's records newest first. */
    REVERSES_FIRST_WRITE_ORDER(StoreRule.QUERY_3),
    /** Finds a WorkSession's record as if it were a record outside WorkSessions. */
    SHOWS_SESSION_RECORDS_AS_GLOBAL(StoreRule.ISOLATE_1),
    /** Counts an Actor's WorkSessions whatever their current status. */
    COUNTS_EVERY_STATUS(StoreRule.COUNT_1),
    /** Reads an Actor without the Worker it names. */
    LOSES_AN_ACTORS_WORKER(StoreRule.QUERY_6),
    /** Reads a sealed WorkSession alone as if it were open (while refusing its appends). */
    FORGETS_THE_SEAL(StoreRule.SEAL_1),
    /** Reads a WorkSession with its records but none of the asked event ids. */
    FORGETS_HELD_EVENT_IDS(StoreRule.QUERY_5),
    /** Answers the overdue Requests latest first. */
    ANSWERS_DUE_REQUESTS_LATEST_FIRST(StoreRule.EXPIRY_1);

    private final StoreRule broken;

    Defect(StoreRule broken) {
      this.broken = broken;
    }

    /** The rule the defect breaks. */
    StoreRule broken() {
      return broken;
    }
  }

  private final Defect defect;
  private final StoreBackend store;

  BrokenStore(Defect defect) {
    this.defect = defect;
    this.store = (StoreBackend) HostStores.inMemory();
  }

  // --- the unit of work ---

  @Override
  public CommitResult commit(Mutation mutation) {
    if (defect == Defect.RUNS_THE_STEP_AFTER_COMMIT && mutation.step().isPresent()) {
      CommitResult result =
          store.commit(
              new Mutation(
                  mutation.claim(),
                  mutation.chain(),
                  mutation.records(),
                  Optional.empty(),
                  mutation.notification()));
      if (result.outcome() == CommitResult.Outcome.COMMITTED) {
        mutation.runStep(UnitOfWork.withoutResources());
      }
      return result;
    }
    return store.commit(mutation);
  }

  // --- WorkSessions and events ---

  @Override
  public Optional<StoredSession> find(String workSessionId) {
    if (defect == Defect.FORGETS_THE_SEAL) {
      return store.find(workSessionId).map(found -> new StoredSession(found.snapshot(), false));
    }
    return store.find(workSessionId);
  }

  @Override
  public Optional<SessionWithRecords> findWithRecords(
      String workSessionId, RecordKind kind, Set<String> statuses) {
    return store.findWithRecords(workSessionId, kind, statuses);
  }

  @Override
  public Optional<SessionWithRecords> findWithRecords(
      String workSessionId, RecordKind kind, Set<String> statuses, Set<String> eventIds) {
    Optional<SessionWithRecords> found =
        store.findWithRecords(workSessionId, kind, statuses, eventIds);
    if (defect == Defect.FORGETS_HELD_EVENT_IDS) {
      return found.map(read -> new SessionWithRecords(read.session(), read.records(), Set.of()));
    }
    return found;
  }

  @Override
  public List<JsonNode> events(String workSessionId) {
    return store.events(workSessionId);
  }

  @Override
  public List<JsonNode> events(String workSessionId, long afterSequence, int limit) {
    if (defect == Defect.PAGES_PAST_THE_LIMIT) {
      return store.events(workSessionId, afterSequence, limit + 1);
    }
    return store.events(workSessionId, afterSequence, limit);
  }

  @Override
  public Optional<JsonNode> event(String workSessionId, String eventId) {
    return store.event(workSessionId, eventId);
  }

  @Override
  public long countCiting(String workSessionId, String ref) {
    return store.countCiting(workSessionId, ref);
  }

  @Override
  public long countCreatedBy(String actorId, Set<String> statuses) {
    if (defect == Defect.COUNTS_EVERY_STATUS) {
      return store.countCreatedBy(
          actorId,
          Arrays.stream(WorkSessionStatus.values())
              .map(WorkSessionStatus::getValue)
              .collect(Collectors.toSet()));
    }
    return store.countCreatedBy(actorId, statuses);
  }

  // --- records ---

  @Override
  public Optional<StoredRecord> find(RecordKind kind, String id) {
    if (defect == Defect.SHOWS_SESSION_RECORDS_AS_GLOBAL) {
      return store.find(kind, id).or(() -> store.findInAnyWorkSession(kind, id));
    }
    return store.find(kind, id);
  }

  @Override
  public Optional<StoredRecord> find(RecordKind kind, String workSessionId, String id) {
    return store.find(kind, workSessionId, id);
  }

  @Override
  public Optional<StoredRecord> findInAnyWorkSession(RecordKind kind, String id) {
    return store.findInAnyWorkSession(kind, id);
  }

  @Override
  public Optional<JsonNode> body(RecordKind kind, String id) {
    return store.body(kind, id);
  }

  @Override
  public Optional<ActorWithWorker> actorWithWorker(String actorId) {
    if (defect == Defect.LOSES_AN_ACTORS_WORKER) {
      return store
          .actorWithWorker(actorId)
          .map(found -> new ActorWithWorker(found.actor(), Optional.empty()));
    }
    return store.actorWithWorker(actorId);
  }

  @Override
  public List<StoredRecord> actorsOf(String workerId) {
    return store.actorsOf(workerId);
  }

  @Override
  public List<StoredRecord> inSession(RecordKind kind, String workSessionId) {
    List<StoredRecord> records = store.inSession(kind, workSessionId);
    if (defect == Defect.REVERSES_FIRST_WRITE_ORDER) {
      List<StoredRecord> reversed = new ArrayList<>(records);
      Collections.reverse(reversed);
      return reversed;
    }
    return records;
  }

  @Override
  public List<StoredRecord> inSession(RecordKind kind, String workSessionId, Set<String> statuses) {
    return store.inSession(kind, workSessionId, statuses);
  }

  @Override
  public List<StoredRecord> requestsTargeting(String humanWorkerId, Set<String> statuses) {
    return store.requestsTargeting(humanWorkerId, statuses);
  }

  @Override
  public List<InboxEntry> inbox(String humanWorkerId, Set<String> statuses, long after, int limit) {
    return store.inbox(humanWorkerId, statuses, after, limit);
  }

  @Override
  public List<StoredRecord> requestsDue(Instant notAfter, Set<String> sessionStatuses, int limit) {
    if (defect == Defect.ANSWERS_DUE_REQUESTS_LATEST_FIRST) {
      List<StoredRecord> due = new ArrayList<>(store.requestsDue(notAfter, sessionStatuses, limit));
      Collections.reverse(due);
      return due;
    }
    return store.requestsDue(notAfter, sessionStatuses, limit);
  }

  // --- idempotency ---

  @Override
  public Optional<Entry> find(Scope scope, Instant notBefore) {
    if (defect == Defect.FINDS_EXPIRED_KEYS) {
      return store.find(scope, Instant.MIN);
    }
    return store.find(scope, notBefore);
  }

  @Override
  public int deleteExpired(Instant notBefore, int limit) {
    if (defect == Defect.PURGES_LIVE_KEYS) {
      return store.deleteExpired(notBefore.plus(Duration.ofDays(1)), limit);
    }
    return store.deleteExpired(notBefore, limit);
  }

  // --- the rest of the store, unchanged ---

  @Override
  public AutoCloseable listenForAppends(AppendListener listener) {
    return store.listenForAppends(listener);
  }

  @Override
  public Optional<NotificationOutbox> notificationOutbox() {
    return store.notificationOutbox();
  }

  @Override
  public boolean ready() {
    return store.ready();
  }

  @Override
  public boolean mayWait() {
    return store.mayWait();
  }

  @Override
  public void close() {
    store.close();
  }
}
