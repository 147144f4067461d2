package dev.jarvis.host;

import dev.jarvis.host.internal.InMemoryProtocolStore;
import dev.jarvis.host.notify.NotificationOutbox;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The storage a host runs on: three read views and one way to write. Every accepted mutation is one
 * {@link #commit} of one {@link Mutation}: its idempotency record, its event with the new
 * WorkSession snapshot, and its protocol records are written together or not at all, so several
 * host instances can share one store and a crash never leaves half a mutation behind.
 *
 * <p>An implementation proves it keeps this contract by passing the store TCK ({@code
 * dev.jarvis.store.tck.HostStoresContract} in module {@code jarvis-store-tck}).
 */
public interface HostStores extends AutoCloseable {

  /** WorkSessions and their event chains. */
  WorkSessionStore sessions();

  /** Protocol records. */
  RecordStore records();

  /** Idempotency records. */
  IdempotencyStore idempotency();

  /**
   * Writes one mutation atomically. The store checks, in this order and inside the unit: the
   * idempotency claim (an insert that fails when a live record holds the key: {@link
   * CommitResult.Outcome#KEY_TAKEN} with that record), the chain write's condition, the create-only
   * records and the host-wide ids ({@link CommitResult.Outcome#CONFLICT}); only when all hold is
   * anything written.
   *
   * <p>Ids of WorkSession records are host-wide: a record of a WorkSession whose kind and id
   * another WorkSession holds makes the mutation a {@link CommitResult.Outcome#CONFLICT}. The
   * store, not the host, is the judge, because host instances sharing a store each pass the host's
   * own check in a race (a database's unique key, written in the same transaction as the record).
   */
  CommitResult commit(Mutation mutation);

  /**
   * The WorkSession with its records of one kind whose body's {@code status} is one of {@code
   * statuses}, in the order they were first written; empty if the WorkSession does not exist. The
   * host reads a WorkSession with its open Requests each time it touches one (it writes their due
   * expiries first), so a store that can answer both from one query (a database: one round trip
   * instead of two) overrides this. The default asks {@link #sessions()}, then {@link #records()}.
   */
  default Optional<SessionWithRecords> findWithRecords(
      String workSessionId, RecordKind kind, Set<String> statuses) {
    return sessions()
        .find(workSessionId)
        .map(
            session ->
                new SessionWithRecords(
                    session, records().inSession(kind, workSessionId, statuses)));
  }

  /**
   * As {@link #findWithRecords(String, RecordKind, Set)}, also answering which of {@code eventIds}
   * an event of the WorkSession has ({@link SessionWithRecords#heldEventIds}): the host asks about
   * the id of an event it is about to append, whose reuse it refuses, so that a store can answer
   * from the same query. The default asks {@link WorkSessionStore#event} for each.
   */
  default Optional<SessionWithRecords> findWithRecords(
      String workSessionId, RecordKind kind, Set<String> statuses, Set<String> eventIds) {
    return findWithRecords(workSessionId, kind, statuses)
        .map(
            found ->
                new SessionWithRecords(
                    found.session(),
                    found.records(),
                    eventIds.stream()
                        .filter(id -> sessions().event(workSessionId, id).isPresent())
                        .collect(Collectors.toSet())));
  }

  /** Writes records outside any WorkSession, such as seeded Policies, replacing earlier ones. */
  default void seed(StoredRecord record) {
    CommitResult result = commit(Mutation.records(List.of(RecordWrite.put(record))));
    if (result.outcome() != CommitResult.Outcome.COMMITTED) {
      throw new IllegalStateException("a plain record write cannot conflict: " + result);
    }
  }

  /**
   * Tells {@code listener} about appends other processes commit to this store (host instances
   * sharing a database), from the commit on: a store that several processes share overrides this
   * (PostgreSQL: {@code LISTEN}/{@code NOTIFY}). The host itself hears its own commits, so a store
   * only one process uses, as the default assumes, tells nothing. A store may also report its own
   * process's commits. Closing the answer stops listening; {@link #close()} stops it too.
   */
  default AutoCloseable listenForAppends(AppendListener listener) {
    return () -> {};
  }

  /**
   * The store's outbox of notifications, if it keeps one: a store that does writes a {@link
   * Mutation#notification()} inside the mutation's unit of work and lets dispatchers lease it
   * (docs/notifications.md). The default keeps none, and a host configured to notify refuses such a
   * store at start.
   */
  default Optional<NotificationOutbox> notificationOutbox() {
    return Optional.empty();
  }

  /** Whether the store can serve now, for a readiness probe (a database that answers). */
  default boolean ready() {
    return true;
  }

  /**
   * Whether a call may wait on something outside the JVM (a database, a file, the network): true
   * unless the store is wholly in memory, as {@link #inMemory()} is. A binding may run the work of
   * a host whose store never waits (and that has no commit hook) on its IO threads, with no
   * hand-off to a worker.
   */
  default boolean mayWait() {
    return true;
  }

  /** Releases what the store holds (connections, files). The in-memory store holds nothing. */
  @Override
  default void close() {}

  /** Fresh in-memory stores: everything is lost when the JVM ends. */
  static HostStores inMemory() {
    return new InMemoryProtocolStore();
  }
}
