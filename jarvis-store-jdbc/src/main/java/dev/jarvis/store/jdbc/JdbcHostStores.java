package dev.jarvis.store.jdbc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.host.ActorWithWorker;
import dev.jarvis.host.AppendListener;
import dev.jarvis.host.CommitResult;
import dev.jarvis.host.InboxEntry;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.SessionWithRecords;
import dev.jarvis.host.StoreBackend;
import dev.jarvis.host.StoreUnavailableException;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.StoredSession;
import dev.jarvis.host.notify.NotificationOutbox;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;

/**
 * The host store on plain JDBC, for PostgreSQL (several host instances sharing one database) and
 * SQLite (the embedded default): the public entry point, which puts together the parts that each do
 * one job.
 *
 * <ul>
 *   <li>{@link StoreBootstrap}: the pool (or an application's {@code DataSource}), the Flyway
 *       migrations, the tables' names; {@link StoreReadiness}: whether the database can serve now;
 *   <li>{@link UnitOfWorkRunner}: one {@link #commit} is one transaction, retried on a deadlock or
 *       serialisation failure, every wait bounded, a connection of uncertain state evicted;
 *   <li>a {@link UnitWriter} per dialect, which writes the unit's conditional statements: on
 *       PostgreSQL the call of the server-side function {@code jarvis_commit} (migration V6), on
 *       SQLite the statements one by one, in the same order with the same conditions;
 *   <li>{@link StoreReads}: the reads, outside transactions (the host decides on them, and the
 *       conditional chain write makes a decision on a stale read a conflict);
 *   <li>{@link IdempotencyPurge}: the retention cleanup of idempotency records;
 *   <li>{@link SharedAppendFeed}: PostgreSQL's append notifications;
 *   <li>{@link JdbcNotificationOutbox}: the notification outbox of migration V12.
 * </ul>
 *
 * A failure the database can recover from (no connection within the pool wait, a lock or statement
 * past its limit, no space, read-only) is a {@link StoreUnavailableException}, which the host
 * answers {@code 503}; when the commit itself failed, its outcome is unknown and the exception says
 * so.
 */
public final class JdbcHostStores implements StoreBackend {

  /** Jarvis's Flyway history table, in the store's schema. */
  public static final String HISTORY_TABLE = "jarvis_schema_history";

  private final Dialect dialect;
  // Closes the pool this object opened; a DataSource it was given belongs to whoever gave it.
  private final Runnable closer;
  private final UnitOfWorkRunner units;
  private final StoreReadiness readiness;
  private final StoreReads reads;
  private final IdempotencyPurge purge;
  private final SharedAppendFeed feed;
  private final JdbcNotificationOutbox outbox;

  private JdbcHostStores(StoreBootstrap start) {
    this.dialect = start.dialect();
    this.closer = start.closer();
    this.reads = new StoreReads(start.pool(), dialect, start.tables(), start.bounds());
    this.units =
        new UnitOfWorkRunner(
            start.pool(), dialect, UnitWriter.of(dialect, start.tables()), start.bounds(), reads);
    this.readiness = new StoreReadiness(start.pool(), start.tables(), units);
    this.purge = new IdempotencyPurge(start.pool(), dialect, start.tables(), start.bounds());
    this.feed =
        new SharedAppendFeed(
            start.feedSource(), start.tables(), PostgresAppendFeed.Timing.from(start.timeouts()));
    this.outbox =
        new JdbcNotificationOutbox(
            start.pool(), dialect, start.tables().outbox(), dialect::failure);
  }

  /**
   * The store on a PostgreSQL {@code DataSource} the application already has, in the connection's
   * default schema (as before schemas of its own): prefer {@link #on(DataSource, String)}.
   *
   * @throws JdbcStoreException if the database cannot be reached or migrated
   * @throws IllegalArgumentException if the database is not PostgreSQL
   */
  public static JdbcHostStores on(DataSource dataSource) {
    return new JdbcHostStores(
        StoreBootstrap.on(dataSource, Optional.empty(), StoreTimeouts.defaults()));
  }

  /**
   * The store on a PostgreSQL {@code DataSource} the application already has (Spring Boot's, for
   * instance), in a schema of its own ({@code jarvis}, say), created if missing, and migrated to
   * this version there, with its Flyway history ({@value #HISTORY_TABLE}) in that schema too: the
   * application's tables and its own Flyway history are never touched, and its connections' {@code
   * search_path} stays its own. {@link #close()} leaves the {@code DataSource} open for its owner.
   * Units and reads are bound by the {@link StoreTimeouts#defaults() default} statement and lock
   * timeouts; the wait for a connection is the pool's own (HikariCP's {@code connectionTimeout}),
   * which only its owner can set. SQLite needs the connection settings {@link #open} gives its own
   * pool: use {@link StoreSpec#embedded} for it.
   *
   * @throws JdbcStoreException if the database cannot be reached or migrated
   * @throws IllegalArgumentException if the database is not PostgreSQL, or the schema is not a
   *     plain identifier
   */
  public static JdbcHostStores on(DataSource dataSource, String schema) {
    return on(dataSource, schema, StoreTimeouts.defaults());
  }

  /**
   * As {@link #on(DataSource, String)}, with these statement and lock timeouts (their pool wait is
   * the {@code DataSource}'s own and is not used).
   */
  public static JdbcHostStores on(DataSource dataSource, String schema, StoreTimeouts timeouts) {
    return new JdbcHostStores(StoreBootstrap.on(dataSource, Optional.of(schema), timeouts));
  }

  /**
   * Opens a pool on the database and migrates its schema to this version (Flyway; several instances
   * starting at once serialise on Flyway's lock).
   *
   * @throws JdbcStoreException if the database cannot be reached or migrated
   * @throws IllegalArgumentException if the URL is not a PostgreSQL or SQLite JDBC URL
   */
  public static JdbcHostStores open(JdbcStoreSettings settings) {
    return new JdbcHostStores(StoreBootstrap.open(settings, Optional.empty()));
  }

  /**
   * As {@link #open(JdbcStoreSettings)}, with the pool's connections made by {@code drivers}
   * applied to the driver's {@code DataSource}: for tests that wrap the driver to fail a chosen
   * statement.
   */
  static JdbcHostStores open(JdbcStoreSettings settings, UnaryOperator<DataSource> drivers) {
    return new JdbcHostStores(StoreBootstrap.open(settings, Optional.of(drivers)));
  }

  /** Which database this is. */
  public Dialect dialect() {
    return dialect;
  }

  /**
   * Whether the database can serve now (for readiness): it answers, and, after a unit failed for
   * want of space or a writable file (disk full, read-only), a probe write commits; see {@link
   * StoreReadiness}.
   */
  @Override
  public boolean ready() {
    return readiness.ready();
  }

  /**
   * One transaction, whose statements decide: the idempotency claim, the chain write, the records
   * (each of a WorkSession with its host-wide id), then the mutation's step; any failed condition
   * rolls the whole transaction back. See {@link UnitOfWorkRunner} and {@link UnitWriter}.
   */
  @Override
  public CommitResult commit(Mutation mutation) {
    return units.commit(mutation);
  }

  /**
   * The outbox of migration V12: a notification a mutation carries is inserted in its unit (on
   * PostgreSQL by the same statement as the rest of the unit, no round trip of its own).
   */
  @Override
  public Optional<NotificationOutbox> notificationOutbox() {
    return Optional.of(outbox);
  }

  /**
   * PostgreSQL: tells {@code listener} the WorkSession id of every event any instance commits to
   * this store's schema (this one's own included), from this call on. The committing transaction
   * sends a {@code NOTIFY} on the schema's channel ({@code jarvis_append_<schema>}, migration V10),
   * which PostgreSQL delivers only on commit; this instance {@code LISTEN}s on one connection of
   * its own, shared by all its listeners (every listener wants every append of the schema, and a
   * listening connection is a database backend held for good): never one of the pool's, and on an
   * application's {@code DataSource} one borrowed for as long as it listens and evicted afterwards.
   * A daemon thread, {@code jarvis-append-listener <channel>}, tells the listeners.
   *
   * <p>The first listener waits, at most the pool wait, for the connection to listen. If it is lost
   * (the database restarted, the backend was terminated, the link went silent: an idle connection
   * is checked every few seconds), it is opened again after a pause that doubles from 250 ms to 30
   * s, and once it listens again every listener is told {@link AppendListener#mayHaveMissed()},
   * once. Closing the answer unregisters the listener, and the last one to go closes the
   * connection; {@link #close()} stops all. SQLite tells nothing: one process uses its file, and
   * the host hears its own commits.
   */
  @Override
  public AutoCloseable listenForAppends(AppendListener listener) {
    return feed.listen(listener);
  }

  /** The backend listening for appends, while one does (for tests). */
  OptionalInt listeningBackendPid() {
    return feed.listeningBackendPid();
  }

  /** The append feed's thread, while one runs (for tests). */
  Optional<Thread> appendFeedThread() {
    return feed.thread();
  }

  /**
   * Stops listening for appends, then closes the pool it opened: waits for borrowed connections to
   * come back, then closes them. A {@code DataSource} given to {@link #on} stays open.
   */
  @Override
  public void close() {
    feed.close();
    closer.run();
  }

  // --- reads, see StoreReads ---

  @Override
  public Optional<StoredSession> find(String workSessionId) {
    return reads.find(workSessionId);
  }

  @Override
  public Optional<SessionWithRecords> findWithRecords(
      String workSessionId, RecordKind kind, Set<String> statuses) {
    return reads.findWithRecords(workSessionId, kind, statuses);
  }

  /**
   * One query: the WorkSession's row joined to its records of that kind and those statuses, and,
   * per event id asked about, whether the chain holds it.
   */
  @Override
  public Optional<SessionWithRecords> findWithRecords(
      String workSessionId, RecordKind kind, Set<String> statuses, Set<String> eventIds) {
    return reads.findWithRecords(workSessionId, kind, statuses, eventIds);
  }

  @Override
  public List<JsonNode> events(String workSessionId) {
    return reads.events(workSessionId);
  }

  @Override
  public List<JsonNode> events(String workSessionId, long afterSequence, int limit) {
    return reads.events(workSessionId, afterSequence, limit);
  }

  @Override
  public Optional<JsonNode> event(String workSessionId, String eventId) {
    return reads.event(workSessionId, eventId);
  }

  @Override
  public long countCiting(String workSessionId, String ref) {
    return reads.countCiting(workSessionId, ref);
  }

  @Override
  public long countCreatedBy(String actorId, Set<String> statuses) {
    return reads.countCreatedBy(actorId, statuses);
  }

  @Override
  public List<StoredRecord> requestsTargeting(String humanWorkerId, Set<String> statuses) {
    return reads.requestsTargeting(humanWorkerId, statuses);
  }

  @Override
  public List<InboxEntry> inbox(String humanWorkerId, Set<String> statuses, long after, int limit) {
    return reads.inbox(humanWorkerId, statuses, after, limit);
  }

  @Override
  public List<StoredRecord> requestsDue(Instant notAfter, Set<String> sessionStatuses, int limit) {
    return reads.requestsDue(notAfter, sessionStatuses, limit);
  }

  @Override
  public Optional<StoredRecord> find(RecordKind kind, String id) {
    return reads.find(kind, id);
  }

  @Override
  public Optional<StoredRecord> find(RecordKind kind, String workSessionId, String id) {
    return reads.find(kind, workSessionId, id);
  }

  /**
   * One query: the Actor's row joined to the Worker's row that its body's {@code worker_id} names.
   */
  @Override
  public Optional<ActorWithWorker> actorWithWorker(String actorId) {
    return reads.actorWithWorker(actorId);
  }

  @Override
  public List<StoredRecord> actorsOf(String workerId) {
    return reads.actorsOf(workerId);
  }

  @Override
  public Optional<StoredRecord> findInAnyWorkSession(RecordKind kind, String id) {
    return reads.findInAnyWorkSession(kind, id);
  }

  @Override
  public List<StoredRecord> inSession(RecordKind kind, String workSessionId) {
    return reads.inSession(kind, workSessionId);
  }

  @Override
  public List<StoredRecord> inSession(RecordKind kind, String workSessionId, Set<String> statuses) {
    return reads.inSession(kind, workSessionId, statuses);
  }

  @Override
  public Optional<Entry> find(Scope scope, Instant notBefore) {
    return reads.find(scope, notBefore);
  }

  // --- retention, see IdempotencyPurge ---

  @Override
  public int deleteExpired(Instant notBefore, int limit) {
    return purge.deleteExpired(notBefore, limit);
  }
}
