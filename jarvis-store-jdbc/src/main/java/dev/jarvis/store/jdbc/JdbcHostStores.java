package dev.jarvis.store.jdbc;

import com.fasterxml.jackson.databind.JsonNode;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.util.DriverDataSource;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.host.ActorWithWorker;
import dev.jarvis.host.AppendListener;
import dev.jarvis.host.ChainWrite;
import dev.jarvis.host.CommitResult;
import dev.jarvis.host.IdempotencyClaim;
import dev.jarvis.host.InboxEntry;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.RecordWrite;
import dev.jarvis.host.SessionWithRecords;
import dev.jarvis.host.StoreBackend;
import dev.jarvis.host.StoreUnavailableException;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.StoredResponse;
import dev.jarvis.host.StoredSession;
import dev.jarvis.host.UnitOfWork;
import dev.jarvis.host.UnitOfWorkException;
import dev.jarvis.host.notify.NotificationOutbox;
import dev.jarvis.model.Actor;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * The host store on plain JDBC, for PostgreSQL (several host instances sharing one database) and
 * SQLite (the embedded default). One {@link #commit} is one transaction, whose statements decide:
 *
 * <ol>
 *   <li>the idempotency claim, {@code INSERT ... ON CONFLICT DO UPDATE ... WHERE stored_at <
 *       notBefore}: no row means a live record holds the key (PostgreSQL waits for a concurrent
 *       claimer's transaction to end first, so the loser reads the winner's committed record);
 *   <li>the chain write: genesis {@code INSERT ... ON CONFLICT DO NOTHING}; append and seal {@code
 *       UPDATE jarvis_work_session ... WHERE id = ? AND revision = ? AND last_event_hash = ? AND
 *       NOT sealed}, whose update count decides;
 *   <li>records: upserts, create-only ones {@code ON CONFLICT DO NOTHING} with their count; each
 *       record of a WorkSession first takes its host-wide id, {@code INSERT INTO
 *       jarvis_host_wide_id ... ON CONFLICT DO NOTHING}, and an id another WorkSession holds is a
 *       conflict;
 *   <li>the mutation's step ({@code CommitHook}, for an outbox), given this transaction's {@code
 *       Connection} as the {@link UnitOfWork}'s resource.
 * </ol>
 *
 * Any failed condition rolls the whole transaction back. On PostgreSQL the first four are one
 * statement: the call of the server-side function {@code jarvis_commit} (migration V6), which runs
 * them in this order and raises SQLSTATE {@code JV409} for a failed condition after the claim; the
 * step, if any, follows on the same connection, then the one commit. SQLite runs them as statements
 * of their own. Reads run outside transactions; the host decides on them and the conditional chain
 * write makes a decision on a stale read a conflict.
 *
 * <p>A connection goes back to the pool only after its unit ended in a commit or a rollback that
 * the driver confirmed; any other connection is evicted. sqlite-jdbc, after {@code SQLITE_FULL},
 * leaves the connection in autocommit while it still reports a transaction: returned to the pool,
 * it would commit each later unit statement by statement, so an idempotency record could outlive
 * its event. A failure the database can recover from (no connection within the pool wait, a lock or
 * statement past its limit, no space, read-only) is a {@link StoreUnavailableException}, which the
 * host answers {@code 503}; when the commit itself failed, its outcome is unknown and the exception
 * says so.
 */
public final class JdbcHostStores implements StoreBackend {

  private static final int ATTEMPTS = 5;

  private final DataSource pool;
  private final Dialect dialect;
  private final Tables tables;
  // On a DataSource of the application's, whose connections carry none of the store's session
  // settings: the statement and lock bounds each unit and read sets for itself. Empty on the
  // store's own pool, which sets them once per connection.
  private final Optional<StoreTimeouts> ownBounds;
  // Closes the pool this object opened; a DataSource it was given belongs to whoever gave it.
  private final Runnable closer;
  // Set when a unit failed for want of space or a writable file, cleared by the next unit that
  // ends: while set, readiness probes with a write (see ready()).
  private volatile boolean cannotWrite;
  // PostgreSQL: the unit of work as one call (migration V6); SQLite runs its statements one by one.
  private final Optional<CommitCall> commitCall;
  private final JdbcNotificationOutbox outbox;
  // PostgreSQL: where the append feed's LISTEN connection comes from, and how it is let go.
  private final Optional<FeedSource> feedSource;
  private final PostgresAppendFeed.Timing feedTiming;
  // The one append feed of this instance while a listener is registered (guarded by itself).
  private final Object feedLock = new Object();
  private Optional<PostgresAppendFeed> feed = Optional.empty();
  private boolean closed;

  /** Where a PostgreSQL store's LISTEN connection comes from, and how it is discarded. */
  private record FeedSource(
      PostgresAppendFeed.Connector connector, java.util.function.Consumer<Connection> discard) {}

  private JdbcHostStores(
      DataSource pool,
      Dialect dialect,
      Tables tables,
      Optional<StoreTimeouts> ownBounds,
      Runnable closer,
      Optional<FeedSource> feedSource,
      StoreTimeouts timeouts) {
    this.pool = pool;
    this.dialect = dialect;
    this.tables = tables;
    this.ownBounds = ownBounds;
    this.closer = closer;
    this.feedSource = feedSource;
    this.feedTiming = PostgresAppendFeed.Timing.from(timeouts);
    this.commitCall =
        dialect == Dialect.POSTGRESQL
            ? Optional.of(new CommitCall(tables.commitFunction(), tables.outbox()))
            : Optional.empty();
    this.outbox = new JdbcNotificationOutbox(pool, dialect, tables.outbox(), this::failure);
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
   * The store's table names, qualified by its schema when it has one of its own, so that its
   * statements never depend on a connection's {@code search_path} (a {@code DataSource} of the
   * application's keeps the application's).
   */
  private record Tables(
      Optional<String> schema,
      String workSession,
      String event,
      String citation,
      String record,
      String idempotency,
      String hostWideId,
      String commitFunction,
      String outbox) {

    static Tables in(Optional<String> schema) {
      schema.ifPresent(JdbcStoreSettings::checkSchema);
      return named(schema);
    }

    /**
     * The tables in the schema PostgreSQL migrated them into when the store has none of its own:
     * the connection's {@code current_schema()} at start-up, so that neither the tables nor the
     * commit function are later looked up through a {@code search_path} another role could put a
     * look-alike {@code jarvis_commit} on.
     */
    static Tables inCurrentSchema(DataSource dataSource) {
      try (Connection c = dataSource.getConnection();
          var statement = c.createStatement();
          var rows = statement.executeQuery("SELECT current_schema()")) {
        String schema = rows.next() ? rows.getString(1) : null;
        if (schema == null) {
          throw new JdbcStoreException(
              "the connection's search_path names no existing schema", null);
        }
        return named(Optional.of(schema));
      } catch (SQLException e) {
        throw new JdbcStoreException("cannot read the connection's current schema", e);
      }
    }

    /** The function migration V9 indexes the open Requests' expiry by (PostgreSQL). */
    String requestExpiryFunction() {
      return commitFunction.substring(0, commitFunction.length() - "jarvis_commit".length())
          + "jarvis_request_expiry";
    }

    private static Tables named(Optional<String> schema) {
      String prefix = schema.map(name -> "\"" + name.replace("\"", "\"\"") + "\".").orElse("");
      return new Tables(
          schema,
          prefix + "jarvis_work_session",
          prefix + "jarvis_event",
          prefix + "jarvis_event_citation",
          prefix + "jarvis_protocol_record",
          prefix + "jarvis_idempotency_record",
          prefix + "jarvis_host_wide_id",
          prefix + "jarvis_commit",
          prefix + "jarvis_notification_outbox");
    }
  }

  /** Jarvis's Flyway history table, in the store's schema. */
  public static final String HISTORY_TABLE = "jarvis_schema_history";

  /**
   * The store on a PostgreSQL {@code DataSource} the application already has, in the connection's
   * default schema (as before schemas of its own): prefer {@link #on(DataSource, String)}.
   *
   * @throws JdbcStoreException if the database cannot be reached or migrated
   * @throws IllegalArgumentException if the database is not PostgreSQL
   */
  public static JdbcHostStores on(DataSource dataSource) {
    return on(dataSource, Optional.empty(), StoreTimeouts.defaults());
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
    return on(dataSource, Optional.of(schema), StoreTimeouts.defaults());
  }

  /**
   * As {@link #on(DataSource, String)}, with these statement and lock timeouts (their pool wait is
   * the {@code DataSource}'s own and is not used).
   */
  public static JdbcHostStores on(DataSource dataSource, String schema, StoreTimeouts timeouts) {
    return on(dataSource, Optional.of(schema), timeouts);
  }

  private static JdbcHostStores on(
      DataSource dataSource, Optional<String> schema, StoreTimeouts timeouts) {
    // Refused before any statement: the name is written into every statement the store sends.
    schema.ifPresent(JdbcStoreSettings::checkSchema);
    String url;
    try (Connection c = dataSource.getConnection()) {
      url = c.getMetaData().getURL();
    } catch (SQLException e) {
      throw new JdbcStoreException("cannot connect to the DataSource", e);
    }
    Dialect dialect =
        Dialect.of(url == null ? "" : url)
            .filter(d -> d == Dialect.POSTGRESQL)
            .orElseThrow(() -> new IllegalArgumentException("a DataSource store needs PostgreSQL"));
    try {
      var flyway =
          Flyway.configure()
              .dataSource(dataSource)
              .locations(dialect.migrations())
              .table(HISTORY_TABLE);
      schema.ifPresent(flyway::schemas);
      flyway.load().migrate();
    } catch (RuntimeException e) {
      throw new JdbcStoreException(
          "cannot migrate the DataSource's database"
              + schema.map(name -> " (schema " + name + ")").orElse(""),
          e);
    }
    Tables tables = schema.isPresent() ? Tables.in(schema) : Tables.inCurrentSchema(dataSource);
    // The feed borrows its connection from the application's DataSource for as long as it listens,
    // and evicts it afterwards: a connection that LISTENs never goes back to someone else's pool.
    FeedSource feed =
        new FeedSource(dataSource::getConnection, connection -> evict(dataSource, connection));
    return new JdbcHostStores(
        dataSource, dialect, tables, Optional.of(timeouts), () -> {}, Optional.of(feed), timeouts);
  }

  /**
   * Opens a pool on the database and migrates its schema to this version (Flyway; several instances
   * starting at once serialise on Flyway's lock).
   *
   * @throws JdbcStoreException if the database cannot be reached or migrated
   * @throws IllegalArgumentException if the URL is not a PostgreSQL or SQLite JDBC URL
   */
  public static JdbcHostStores open(JdbcStoreSettings settings) {
    return open(settings, Optional.empty());
  }

  /**
   * As {@link #open(JdbcStoreSettings)}, with the pool's connections made by {@code drivers}
   * applied to the driver's {@code DataSource}: for tests that wrap the driver to fail a chosen
   * statement.
   */
  static JdbcHostStores open(JdbcStoreSettings settings, UnaryOperator<DataSource> drivers) {
    return open(settings, Optional.of(drivers));
  }

  private static JdbcHostStores open(
      JdbcStoreSettings settings, Optional<UnaryOperator<DataSource>> drivers) {
    Dialect dialect =
        Dialect.of(settings.jdbcUrl())
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "not a jdbc:postgresql: or jdbc:sqlite: URL: " + settings.redactedUrl()));
    HikariConfig config = new HikariConfig();
    config.setPoolName("jarvis-store");
    settings.schema().ifPresent(config::setSchema);
    config.setMaximumPoolSize(settings.poolSize());
    dialect.configure(config, settings.timeouts());
    if (drivers.isPresent()) {
      // What HikariCP builds from the URL and properties itself, given to the wrapper first.
      config.setDataSource(
          drivers
              .get()
              .apply(
                  new DriverDataSource(
                      settings.jdbcUrl(),
                      null,
                      config.getDataSourceProperties(),
                      null,
                      settings.password().orElse(null))));
    } else {
      config.setJdbcUrl(settings.jdbcUrl());
      settings.password().ifPresent(config::setPassword);
    }
    HikariDataSource pool;
    try {
      pool = new HikariDataSource(config);
    } catch (RuntimeException e) {
      throw new JdbcStoreException("cannot connect to " + settings.redactedUrl(), e);
    }
    try {
      // PostgreSQL migrates on connections of its own, without the pool's statement and lock
      // timeouts: a migration may rightly run longer than a request, or wait for the table locks
      // of instances still serving.
      DataSource migrating =
          dialect == Dialect.POSTGRESQL
              ? new DriverDataSource(
                  settings.jdbcUrl(),
                  null,
                  new Properties(),
                  null,
                  settings.password().orElse(null))
              : pool;
      var flyway =
          Flyway.configure()
              .dataSource(migrating)
              .locations(dialect.migrations())
              .table(HISTORY_TABLE);
      settings.schema().ifPresent(flyway::schemas);
      flyway.load().migrate();
    } catch (RuntimeException e) {
      pool.close();
      throw new JdbcStoreException("cannot migrate " + settings.redactedUrl(), e);
    }
    Tables tables;
    try {
      tables =
          settings.schema().isPresent() || dialect != Dialect.POSTGRESQL
              ? Tables.in(settings.schema())
              : Tables.inCurrentSchema(pool);
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
    Optional<FeedSource> feed =
        dialect == Dialect.POSTGRESQL
            ? Optional.of(listening(settings, PostgresAppendFeed.Timing.from(settings.timeouts())))
            : Optional.empty();
    return new JdbcHostStores(
        pool, dialect, tables, Optional.empty(), pool::close, feed, settings.timeouts());
  }

  /**
   * The append feed's connections on the store's own pool settings: the same URL and password as
   * the pool, opened by the driver on their own (never one of the pool's), bound to answer within
   * the feed's answer wait, and named in {@code pg_stat_activity}.
   */
  private static FeedSource listening(
      JdbcStoreSettings settings, PostgresAppendFeed.Timing timing) {
    Properties properties = new Properties();
    String seconds = Long.toString(Math.max(1, timing.answer().toSeconds()));
    properties.setProperty("connectTimeout", seconds);
    properties.setProperty("loginTimeout", seconds);
    properties.setProperty("tcpKeepAlive", "true");
    properties.setProperty("ApplicationName", "jarvis-append-listener");
    DataSource driver =
        new DriverDataSource(
            settings.jdbcUrl(), null, properties, null, settings.password().orElse(null));
    return new FeedSource(
        driver::getConnection,
        connection -> {
          PostgresAppendFeed.abort(connection);
          try {
            connection.close();
          } catch (SQLException | RuntimeException e) {
            // Already gone.
          }
        });
  }

  /** The failure a caller sees: a store fault when the database may recover, else a defect. */
  private RuntimeException failure(String what, SQLException e) {
    return dialect.unavailable(e)
        ? new StoreUnavailableException(what, e)
        : new JdbcStoreException(what, e);
  }

  /** Which database this is. */
  public Dialect dialect() {
    return dialect;
  }

  /**
   * Whether the database can serve now (for readiness): it answers, and, after a unit failed for
   * want of space or a writable file (disk full, read-only), a probe write commits. Reads still
   * succeed on a full disk, so without the probe readiness would say UP while every write is
   * refused; the probe runs only while that fault stands, and its success (or any unit's) clears
   * it, so readiness turns UP again once space returns, without a restart.
   */
  @Override
  public boolean ready() {
    try (Connection c = pool.getConnection()) {
      if (!c.isValid(2)) {
        return false;
      }
    } catch (SQLException | RuntimeException e) {
      return false;
    }
    if (!cannotWrite) {
      return true;
    }
    try {
      // A unit of its own, so that a probe on a broken connection is evicted like any unit.
      return commit(Mutation.records(List.of()).within(this::probeWrite)).outcome()
          == CommitResult.Outcome.COMMITTED;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** Writes a page's worth into the idempotency table and deletes it, in the probe's unit. */
  private void probeWrite(UnitOfWork unit) throws SQLException {
    Connection c = unit.resource(Connection.class).orElseThrow();
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT INTO "
                + tables.idempotency()
                + " (actor_id, operation_id, protocol_version,"
                + " idempotency_key, fingerprint, status, headers, body, stored_at_micros)"
                + " VALUES ('', 'readiness-probe', '', '', '', 0, '{}', ?, 0)"
                + " ON CONFLICT (actor_id, operation_id, protocol_version, idempotency_key)"
                + " DO NOTHING")) {
      s.setBytes(1, new byte[PROBE_BYTES]);
      s.executeUpdate();
    }
    try (PreparedStatement s =
        c.prepareStatement(
            "DELETE FROM "
                + tables.idempotency()
                + " WHERE actor_id = '' AND operation_id ="
                + " 'readiness-probe'")) {
      s.executeUpdate();
    }
  }

  /** About a page of SQLite and PostgreSQL: a write that needs room. */
  private static final int PROBE_BYTES = 8 * 1024;

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
    java.util.Objects.requireNonNull(listener, "listener");
    if (feedSource.isEmpty()) {
      return () -> {};
    }
    PostgresAppendFeed running;
    Runnable remove;
    synchronized (feedLock) {
      if (closed) {
        throw new IllegalStateException("the store is closed");
      }
      if (feed.isEmpty()) {
        feed =
            Optional.of(
                PostgresAppendFeed.start(
                    PostgresAppendFeed.channel(tables.schema().orElseThrow()),
                    feedSource.get().connector(),
                    feedSource.get().discard(),
                    feedTiming));
      }
      running = feed.get();
      // Under the lock: the last listener leaving stops the feed only when none was added.
      remove = running.add(listener);
    }
    // Outside the lock: waits for the first LISTEN, at most the pool wait.
    running.awaitListening();
    return () -> {
      PostgresAppendFeed stopping = null;
      synchronized (feedLock) {
        remove.run();
        if (feed.isPresent() && feed.get() == running && running.idle()) {
          feed = Optional.empty();
          stopping = running;
        }
      }
      if (stopping != null) {
        stopping.stop();
      }
    };
  }

  /** The backend listening for appends, while one does (for tests). */
  java.util.OptionalInt listeningBackendPid() {
    synchronized (feedLock) {
      return feed.map(PostgresAppendFeed::backendPid).orElse(java.util.OptionalInt.empty());
    }
  }

  /** The append feed's thread, while one runs (for tests). */
  Optional<Thread> appendFeedThread() {
    synchronized (feedLock) {
      return feed.map(PostgresAppendFeed::thread);
    }
  }

  /**
   * Stops listening for appends, then closes the pool it opened: waits for borrowed connections to
   * come back, then closes them. A {@code DataSource} given to {@link #on} stays open.
   */
  @Override
  public void close() {
    Optional<PostgresAppendFeed> stopping;
    synchronized (feedLock) {
      closed = true;
      stopping = feed;
      feed = Optional.empty();
    }
    stopping.ifPresent(PostgresAppendFeed::stop);
    closer.run();
  }

  // --- the unit of work ---

  /** Why a transaction stopped early: its outcome, rolled back. */
  private static final class Stop extends Exception {
    private static final long serialVersionUID = 1L;
    final transient CommitResult.Outcome outcome;
    // For KEY_TAKEN, the key's record when the statement that found the key taken read it too
    // (empty inside: it expired before it could be read); empty: still to be read.
    final transient Optional<Optional<Entry>> first;

    Stop(CommitResult.Outcome outcome) {
      this(outcome, Optional.empty());
    }

    Stop(CommitResult.Outcome outcome, Optional<Optional<Entry>> first) {
      super(null, null, false, false);
      this.outcome = outcome;
      this.first = first;
    }
  }

  /**
   * The commit itself failed: the database may have written the unit or not, and only the
   * idempotency record (written in the same transaction) will tell.
   */
  private static final class CommitLost extends Exception {
    private static final long serialVersionUID = 1L;

    CommitLost(SQLException cause) {
      super(cause.getMessage(), cause);
    }
  }

  @Override
  public CommitResult commit(Mutation mutation) {
    for (int attempt = 1; ; attempt++) {
      Optional<CommitResult> result;
      try {
        result = attempt(mutation);
      } catch (CommitLost lost) {
        // Never retried here: a second unit could apply the request twice. The host asks the
        // caller to retry with the same key, which replays the first answer if this one committed.
        throw new StoreUnavailableException(
            "the commit failed; its outcome is unknown",
            lost.getCause(),
            StoreUnavailableException.Outcome.UNKNOWN,
            StoreUnavailableException.DEFAULT_RETRY_AFTER);
      } catch (SQLException e) {
        if (attempt >= ATTEMPTS || !dialect.retryable(e)) {
          cannotWrite = cannotWrite || dialect.cannotWrite(e);
          throw failure("commit failed", e);
        }
        continue;
      }
      if (result.isPresent()) {
        cannotWrite = false;
        return result.get();
      }
      // The holder of the key expired or was purged in between: claim again.
      if (attempt >= ATTEMPTS) {
        throw new JdbcStoreException("commit kept losing its idempotency key", null);
      }
    }
  }

  /**
   * One transaction: its result, or empty when the key's holder vanished before it could be read.
   * Thrown {@link SQLException}s wrote nothing (the transaction was rolled back, or its connection
   * is gone, which rolls it back on the server); a failed rollback is added to the first error as
   * suppressed.
   */
  private Optional<CommitResult> attempt(Mutation mutation) throws SQLException, CommitLost {
    if (commitCall.isPresent() && ownBounds.isEmpty() && mutation.step().isEmpty()) {
      return alone(commitCall.get(), mutation);
    }
    Connection c = pool.getConnection();
    // Set once the unit ended in a commit or rollback the driver confirmed: only then can the
    // connection serve another unit.
    boolean ended = false;
    try {
      c.setAutoCommit(false);
      try {
        bound(c);
        write(c, mutation);
      } catch (Stop stop) {
        c.rollback();
        if (stop.outcome == CommitResult.Outcome.CONFLICT) {
          ended = true;
          return Optional.of(CommitResult.conflict());
        }
        IdempotencyClaim claim = mutation.claim().orElseThrow();
        // On this connection: borrowing a second one while holding it could starve the pool.
        Optional<Entry> first =
            stop.first.isPresent() ? stop.first.get() : entry(c, claim.scope(), claim.notBefore());
        c.commit();
        ended = true;
        return first.map(CommitResult::keyTaken);
      } catch (SQLException | RuntimeException e) {
        ended = rollBack(c, e);
        throw e;
      }
      try {
        c.commit();
      } catch (SQLException e) {
        rollBack(c, e);
        throw new CommitLost(e);
      }
      ended = true;
      return Optional.of(CommitResult.committed());
    } finally {
      release(c, ended);
    }
  }

  /**
   * PostgreSQL on the store's own pool, a unit without a step: the call of {@code jarvis_commit} as
   * a transaction of its own (autocommit), which saves the {@code COMMIT} round trip. The server
   * commits the call's writes when it returns and undoes all of them when it fails, so a failure
   * the server reported wrote nothing, and a conflict ({@link CommitCall#CONFLICT_STATE}) needs no
   * rollback. A call whose answer never came (the link or the server went away) may have committed
   * before: an unknown outcome, as a commit whose answer was lost. On an application's {@code
   * DataSource} the unit stays a transaction, which its {@code SET LOCAL} timeouts need; a step
   * needs one too.
   */
  private Optional<CommitResult> alone(CommitCall call, Mutation mutation)
      throws SQLException, CommitLost {
    Connection c = pool.getConnection();
    // Set once the server ended the call's transaction and said how: only then can the connection
    // serve another unit.
    boolean ended = false;
    try {
      c.setAutoCommit(true); // the pool's default; a no-op that holds it to it
      CommitCall.Outcome outcome;
      try {
        outcome = call.run(c, mutation);
      } catch (SQLException e) {
        if (dialect.answerLost(e)) {
          throw new CommitLost(e);
        }
        ended = true;
        if (CommitCall.CONFLICT_STATE.equals(e.getSQLState())) {
          return Optional.of(CommitResult.conflict());
        }
        throw e;
      }
      ended = true;
      if (outcome instanceof CommitCall.KeyTaken taken) {
        return taken.first().map(CommitResult::keyTaken);
      }
      return Optional.of(CommitResult.committed());
    } finally {
      release(c, ended);
    }
  }

  /**
   * Rolls back after {@code first}; whether the driver confirmed it (else it joins {@code first}).
   */
  private static boolean rollBack(Connection c, Exception first) {
    try {
      c.rollback();
      return true;
    } catch (SQLException | RuntimeException e) {
      first.addSuppressed(e);
      return false;
    }
  }

  /**
   * Back to the pool when its unit ended cleanly, else evicted: closed for good, so that no later
   * unit runs on a connection whose transaction state the driver may misreport.
   */
  private void release(Connection c, boolean ended) {
    if (ended) {
      try {
        c.close();
        return;
      } catch (SQLException | RuntimeException e) {
        // The pool could not reset it (its own rollback or autocommit failed): evict it.
      }
    }
    evict(c);
  }

  private void evict(Connection c) {
    evict(pool, c);
  }

  /** Closes {@code c}, a connection of {@code pool}, for good: it never serves again. */
  private static void evict(DataSource pool, Connection c) {
    try {
      if (pool.isWrapperFor(HikariDataSource.class)) {
        // Closes the physical connection now; the pool opens a fresh one when it needs one.
        pool.unwrap(HikariDataSource.class).evictConnection(c);
        return;
      }
    } catch (SQLException | RuntimeException e) {
      // Not a HikariCP pool after all: abort below.
    }
    // Any other pool (a DataSource given to on()): abort ends the physical connection, and a pool
    // drops a connection that is closed when it comes back.
    try {
      c.abort(Runnable::run);
    } catch (SQLException | RuntimeException e) {
      // Already gone.
    }
    try {
      c.close();
    } catch (SQLException | RuntimeException e) {
      // Already gone.
    }
  }

  /**
   * On an application's {@code DataSource}: this transaction's statement and lock timeouts ({@code
   * SET LOCAL}, gone at its end, so the application's connections keep their own settings).
   */
  private void bound(Connection c) throws SQLException {
    if (ownBounds.isPresent()) {
      try (java.sql.Statement s = c.createStatement()) {
        s.execute(
            "SET LOCAL statement_timeout = "
                + ownBounds.get().statementTimeout().toMillis()
                + "; SET LOCAL lock_timeout = "
                + ownBounds.get().lockTimeout().toMillis());
      }
    }
  }

  /**
   * On an application's {@code DataSource}: a read outside a transaction is bound by the driver's
   * query timeout (whole seconds, rounded up), since {@code SET LOCAL} needs a transaction.
   */
  private void bound(PreparedStatement s) throws SQLException {
    if (ownBounds.isPresent()) {
      long millis =
          ownBounds.get().statementTimeout().toMillis() + ownBounds.get().lockTimeout().toMillis();
      s.setQueryTimeout((int) Math.max(1, (millis + 999) / 1000));
    }
  }

  private void write(Connection c, Mutation mutation) throws SQLException, Stop {
    if (commitCall.isPresent()) {
      call(c, commitCall.get(), mutation);
    } else {
      statements(c, mutation);
    }
    // Every condition held; the step writes on this connection, inside this transaction.
    try {
      mutation.runStep(UnitOfWork.of(c));
    } catch (UnitOfWorkException e) {
      if (e.getCause() instanceof SQLException sql) {
        throw sql; // a serialization failure is retried like the mutation's own statements
      }
      throw e;
    }
  }

  /** PostgreSQL: the whole unit in one statement, the call of {@code jarvis_commit}. */
  private static void call(Connection c, CommitCall call, Mutation mutation)
      throws SQLException, Stop {
    CommitCall.Outcome outcome;
    try {
      outcome = call.run(c, mutation);
    } catch (SQLException e) {
      if (CommitCall.CONFLICT_STATE.equals(e.getSQLState())) {
        throw new Stop(CommitResult.Outcome.CONFLICT);
      }
      throw e;
    }
    if (outcome instanceof CommitCall.KeyTaken taken) {
      throw new Stop(CommitResult.Outcome.KEY_TAKEN, Optional.of(taken.first()));
    }
  }

  /** SQLite: one statement per write, in the order the function runs them on PostgreSQL. */
  private void statements(Connection c, Mutation mutation) throws SQLException, Stop {
    if (mutation.claim().isPresent()) {
      claim(c, mutation.claim().get());
    }
    if (mutation.chain().isPresent()) {
      chain(c, mutation.chain().get());
    }
    for (RecordWrite write : mutation.records()) {
      record(c, write);
    }
    if (mutation.notification().isPresent()) {
      JdbcNotificationOutbox.insert(c, tables.outbox(), mutation.notification().get());
    }
  }

  private void claim(Connection c, IdempotencyClaim claim) throws SQLException, Stop {
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT INTO "
                + tables.idempotency()
                + " (actor_id, operation_id, protocol_version,"
                + " idempotency_key, fingerprint, status, headers, body, stored_at_micros)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                + " ON CONFLICT (actor_id, operation_id, protocol_version, idempotency_key)"
                + " DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status,"
                + " headers = excluded.headers, body = excluded.body,"
                + " stored_at_micros = excluded.stored_at_micros"
                + " WHERE jarvis_idempotency_record.stored_at_micros < ?")) {
      scope(s, claim.scope());
      Entry entry = claim.entry();
      s.setString(5, entry.fingerprint());
      s.setInt(6, entry.response().status());
      s.setString(7, JsonText.write(entry.response().headers()));
      s.setBytes(8, entry.response().body());
      s.setLong(9, micros(entry.storedAt()));
      s.setLong(10, micros(claim.notBefore()));
      if (s.executeUpdate() == 0) {
        throw new Stop(CommitResult.Outcome.KEY_TAKEN);
      }
    }
  }

  private void chain(Connection c, ChainWrite write) throws SQLException, Stop {
    if (write instanceof ChainWrite.Genesis genesis) {
      StoredSession session = genesis.session();
      try (PreparedStatement s =
          c.prepareStatement(
              "INSERT INTO "
                  + tables.workSession()
                  + " (id, revision, last_event_hash, sealed, snapshot)"
                  + " VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING")) {
        s.setString(1, session.id());
        s.setLong(2, session.cursor().revision());
        s.setString(3, session.cursor().lastEventHash());
        s.setBoolean(4, false);
        s.setString(5, JsonText.write(session.snapshot()));
        decides(s.executeUpdate());
      }
      event(c, session.id(), genesis.firstEvent());
    } else if (write instanceof ChainWrite.Append append) {
      ChainCursor next = append.updated().cursor();
      try (PreparedStatement s =
          c.prepareStatement(
              "UPDATE "
                  + tables.workSession()
                  + " SET revision = ?, last_event_hash = ?, snapshot = ?"
                  + " WHERE id = ? AND revision = ? AND last_event_hash = ? AND NOT sealed")) {
        s.setLong(1, next.revision());
        s.setString(2, next.lastEventHash());
        s.setString(3, JsonText.write(append.updated().snapshot()));
        cursor(s, 4, append.workSessionId(), append.expected());
        decides(s.executeUpdate());
      }
      event(c, append.workSessionId(), append.event());
    } else {
      ChainWrite.Seal seal = (ChainWrite.Seal) write;
      try (PreparedStatement s =
          c.prepareStatement(
              "UPDATE "
                  + tables.workSession()
                  + " SET sealed = ?"
                  + " WHERE id = ? AND revision = ? AND last_event_hash = ? AND NOT sealed")) {
        s.setBoolean(1, true);
        cursor(s, 2, seal.workSessionId(), seal.expected());
        decides(s.executeUpdate());
      }
    }
  }

  private void event(Connection c, String workSessionId, JsonNode event) throws SQLException {
    long sequence = event.path("sequence").asLong();
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT INTO "
                + tables.event()
                + " (work_session_id, sequence, event_id, event)"
                + " VALUES (?, ?, ?, ?)")) {
      s.setString(1, workSessionId);
      s.setLong(2, sequence);
      s.setString(3, event.path("id").asText());
      s.setString(4, JsonText.write(event));
      s.executeUpdate();
    }
    Set<String> refs = new LinkedHashSet<>();
    event.path("payload").path("evidence_refs").forEach(ref -> refs.add(ref.asText()));
    if (refs.isEmpty()) {
      return;
    }
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT INTO "
                + tables.citation()
                + " (work_session_id, ref, sequence) VALUES (?, ?, ?)")) {
      for (String ref : refs) {
        s.setString(1, workSessionId);
        s.setString(2, ref);
        s.setLong(3, sequence);
        s.addBatch();
      }
      s.executeBatch();
    }
  }

  private void record(Connection c, RecordWrite write) throws SQLException, Stop {
    StoredRecord record = write.record();
    if (record.workSessionId().isPresent()) {
      holdHostWide(c, record.kind(), record.id(), record.workSessionId().get());
    }
    String sql =
        "INSERT INTO "
            + tables.record()
            + " (kind, work_session_id, id, status, recorded_revision,"
            + " recorded_event_hash, body) VALUES (?, ?, ?, ?, ?, ?, ?)"
            + " ON CONFLICT (kind, work_session_id, id) "
            + (write.createOnly()
                ? "DO NOTHING"
                : "DO UPDATE SET status = excluded.status,"
                    + " recorded_revision = excluded.recorded_revision,"
                    + " recorded_event_hash = excluded.recorded_event_hash, body = excluded.body");
    try (PreparedStatement s = c.prepareStatement(sql)) {
      s.setString(1, record.kind().name());
      s.setString(2, record.workSessionId().orElse(""));
      s.setString(3, record.id());
      JsonNode status = record.body().path("status");
      if (status.isTextual()) {
        s.setString(4, status.asText());
      } else {
        s.setNull(4, Types.VARCHAR);
      }
      if (record.recordedAt().isPresent()) {
        s.setLong(5, record.recordedAt().get().revision());
        s.setString(6, record.recordedAt().get().lastEventHash());
      } else {
        s.setNull(5, Types.BIGINT);
        s.setNull(6, Types.VARCHAR);
      }
      s.setString(7, JsonText.write(record.body()));
      if (write.createOnly()) {
        decides(s.executeUpdate());
      } else {
        s.executeUpdate();
      }
    }
  }

  /**
   * Takes the host-wide id of a WorkSession record for its WorkSession (migration V3), or finds it
   * held already. Held by another WorkSession, it stops the commit as a conflict; on PostgreSQL the
   * insert first waits for a concurrent holder's transaction, so of two instances racing one id in
   * two WorkSessions exactly one commits. Most record writes are new records, one insert each; an
   * update of a record, or a conflict, reads who holds the id.
   */
  private void holdHostWide(Connection c, RecordKind kind, String id, String workSessionId)
      throws SQLException, Stop {
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT INTO "
                + tables.hostWideId()
                + " (kind, id, work_session_id) VALUES (?, ?, ?)"
                + " ON CONFLICT (kind, id) DO NOTHING")) {
      s.setString(1, kind.name());
      s.setString(2, id);
      s.setString(3, workSessionId);
      if (s.executeUpdate() == 1) {
        return;
      }
    }
    try (PreparedStatement s =
        c.prepareStatement(
            "SELECT 1 FROM "
                + tables.hostWideId()
                + " WHERE kind = ? AND id = ? AND work_session_id = ?"
                + " UNION ALL"
                // A WorkSession that recorded the id before V3 existed keeps its own record.
                + " SELECT 1 FROM "
                + tables.record()
                + " WHERE kind = ? AND id = ? AND work_session_id = ?")) {
      for (int from : new int[] {1, 4}) {
        s.setString(from, kind.name());
        s.setString(from + 1, id);
        s.setString(from + 2, workSessionId);
      }
      try (ResultSet r = s.executeQuery()) {
        if (!r.next()) {
          throw new Stop(CommitResult.Outcome.CONFLICT);
        }
      }
    }
  }

  /** An update count of 0 is a failed condition. */
  private static void decides(int updated) throws Stop {
    if (updated == 0) {
      throw new Stop(CommitResult.Outcome.CONFLICT);
    }
  }

  private static void cursor(PreparedStatement s, int from, String id, ChainCursor expected)
      throws SQLException {
    s.setString(from, id);
    s.setLong(from + 1, expected.revision());
    s.setString(from + 2, expected.lastEventHash());
  }

  private static void scope(PreparedStatement s, Scope scope) throws SQLException {
    s.setString(1, scope.actorId());
    s.setString(2, scope.operationId());
    s.setString(3, scope.protocolVersion());
    s.setString(4, scope.key());
  }

  // --- reads ---

  /** One query, its rows mapped. */
  private <T> List<T> query(String sql, Binder binder, Row<T> row) {
    try (Connection c = pool.getConnection();
        PreparedStatement s = c.prepareStatement(sql)) {
      bound(s);
      binder.bind(s);
      List<T> out = new ArrayList<>();
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          out.add(row.map(r));
        }
      }
      return out;
    } catch (SQLException e) {
      throw failure("query failed", e);
    }
  }

  private <T> Optional<T> one(String sql, Binder binder, Row<T> row) {
    return query(sql, binder, row).stream().findFirst();
  }

  @FunctionalInterface
  private interface Binder {
    void bind(PreparedStatement s) throws SQLException;
  }

  @FunctionalInterface
  private interface Row<T> {
    T map(ResultSet r) throws SQLException;
  }

  @Override
  public Optional<StoredSession> find(String workSessionId) {
    return one(
        "SELECT snapshot, sealed FROM " + tables.workSession() + " WHERE id = ?",
        s -> s.setString(1, workSessionId),
        r -> new StoredSession(JsonText.object(r.getString(1)), r.getBoolean(2)));
  }

  @Override
  public Optional<SessionWithRecords> findWithRecords(
      String workSessionId, RecordKind kind, Set<String> statuses) {
    return findWithRecords(workSessionId, kind, statuses, Set.of());
  }

  /**
   * One query: the WorkSession's row joined to its records of that kind and those statuses (index
   * {@code protocol_record_by_status}), one row per record, or one row without a record; each row
   * also says, per event id asked about, whether the chain holds it (index {@code
   * jarvis_event_by_id}).
   */
  @Override
  public Optional<SessionWithRecords> findWithRecords(
      String workSessionId, RecordKind kind, Set<String> statuses, Set<String> eventIds) {
    List<String> wanted = List.copyOf(statuses);
    List<String> asked = List.copyOf(eventIds);
    StringBuilder sql = new StringBuilder("SELECT w.snapshot, w.sealed");
    for (int i = 0; i < asked.size(); i++) {
      sql.append(", EXISTS (SELECT 1 FROM ")
          .append(tables.event())
          .append(" e WHERE e.work_session_id = w.id AND e.event_id = ?)");
    }
    sql.append(
            ", r.kind, r.work_session_id, r.id, r.recorded_revision, r.recorded_event_hash, r.body")
        .append(" FROM ")
        .append(tables.workSession())
        .append(" w LEFT JOIN ")
        .append(tables.record())
        .append(" r ON ")
        .append(
            wanted.isEmpty()
                ? "1 = 0"
                : "r.work_session_id = w.id AND r.kind = ? AND r.status IN ("
                    + marks(wanted.size())
                    + ")")
        .append(" WHERE w.id = ? ORDER BY r.write_order");
    int recordFrom = 3 + asked.size();
    List<SessionRow> rows =
        query(
            sql.toString(),
            s -> {
              int at = 1;
              for (String eventId : asked) {
                s.setString(at++, eventId);
              }
              if (!wanted.isEmpty()) {
                s.setString(at++, kind.name());
                for (String status : wanted) {
                  s.setString(at++, status);
                }
              }
              s.setString(at, workSessionId);
            },
            r -> {
              Set<String> held = new HashSet<>();
              for (int i = 0; i < asked.size(); i++) {
                if (r.getBoolean(3 + i)) {
                  held.add(asked.get(i));
                }
              }
              return new SessionRow(
                  r.getString(1),
                  r.getBoolean(2),
                  held,
                  r.getString(recordFrom) == null
                      ? Optional.empty()
                      : Optional.of(record(r, recordFrom)));
            });
    if (rows.isEmpty()) {
      return Optional.empty();
    }
    // The WorkSession's columns repeat on every row; they are read once.
    SessionRow first = rows.get(0);
    StoredSession session = new StoredSession(JsonText.object(first.snapshot()), first.sealed());
    List<StoredRecord> records = new ArrayList<>();
    rows.forEach(row -> row.record().ifPresent(records::add));
    return Optional.of(new SessionWithRecords(session, records, first.heldEventIds()));
  }

  /**
   * A row of {@link #findWithRecords}: the WorkSession's columns, the event ids asked about that
   * its chain holds, and a record if one joined.
   */
  private record SessionRow(
      String snapshot, boolean sealed, Set<String> heldEventIds, Optional<StoredRecord> record) {}

  @Override
  public List<JsonNode> events(String workSessionId) {
    return query(
        "SELECT event FROM " + tables.event() + " WHERE work_session_id = ? ORDER BY sequence",
        s -> s.setString(1, workSessionId),
        r -> JsonText.read(r.getString(1)));
  }

  @Override
  public List<JsonNode> events(String workSessionId, long afterSequence, int limit) {
    // A range on the primary key (work_session_id, sequence): one page costs the same at any depth.
    return query(
        "SELECT event FROM "
            + tables.event()
            + " WHERE work_session_id = ? AND sequence > ? ORDER BY sequence LIMIT ?",
        s -> {
          s.setString(1, workSessionId);
          s.setLong(2, afterSequence);
          s.setInt(3, limit);
        },
        r -> JsonText.read(r.getString(1)));
  }

  @Override
  public Optional<JsonNode> event(String workSessionId, String eventId) {
    return one(
        "SELECT event FROM "
            + tables.event()
            + " WHERE work_session_id = ? AND event_id = ?"
            + " ORDER BY sequence LIMIT 1",
        s -> {
          s.setString(1, workSessionId);
          s.setString(2, eventId);
        },
        r -> JsonText.read(r.getString(1)));
  }

  @Override
  public long countCiting(String workSessionId, String ref) {
    return one(
            "SELECT count(*) FROM " + tables.citation() + " WHERE work_session_id = ? AND ref = ?",
            s -> {
              s.setString(1, workSessionId);
              s.setString(2, ref);
            },
            r -> r.getLong(1))
        .orElse(0L);
  }

  @Override
  public long countCreatedBy(String actorId, Set<String> statuses) {
    if (statuses.isEmpty()) {
      return 0;
    }
    List<String> wanted = List.copyOf(statuses);
    // Index work_session_by_creator (migration V4): its expressions, written as it has them.
    return one(
            "SELECT count(*) FROM "
                + tables.workSession()
                + " WHERE "
                + json("snapshot", "created_by_actor_id")
                + " = ? AND "
                + json("snapshot", "status")
                + " IN ("
                + marks(wanted.size())
                + ")",
            texts(List.of(actorId), wanted),
            r -> r.getLong(1))
        .orElse(0L);
  }

  @Override
  public List<StoredRecord> requestsTargeting(String humanWorkerId, Set<String> statuses) {
    if (statuses.isEmpty()) {
      return List.of();
    }
    List<String> wanted = List.copyOf(statuses);
    // Partial index jarvis_protocol_record_inbox (migration V11; V4 and V6 before): the kind is a
    // literal so
    // that the planner sees the query is within the index's WHERE.
    return query(
        recordColumns()
            + " WHERE kind = 'REQUEST' AND work_session_id <> '' AND "
            + json("body", "target_human_worker_id")
            + " = ? AND status IN ("
            + marks(wanted.size())
            + ") ORDER BY write_order",
        texts(List.of(humanWorkerId), wanted),
        JdbcHostStores::record);
  }

  @Override
  public List<InboxEntry> inbox(String humanWorkerId, Set<String> statuses, long after, int limit) {
    if (statuses.isEmpty() || limit < 1) {
      return List.of();
    }
    List<String> wanted = List.copyOf(statuses);
    // Partial index jarvis_protocol_record_inbox (migration V11; on SQLite the V4 index on target
    // and status, whose entries end in the rowid, write_order): a range per wanted status, merged
    // by write order. The kind is a literal so that the planner sees the query is within the
    // index's WHERE.
    return query(
        "SELECT write_order, kind, work_session_id, id, recorded_revision, recorded_event_hash,"
            + " body FROM "
            + tables.record()
            + " WHERE kind = 'REQUEST' AND work_session_id <> '' AND "
            + json("body", "target_human_worker_id")
            + " = ? AND status IN ("
            + marks(wanted.size())
            + ") AND write_order > ? ORDER BY write_order LIMIT ?",
        s -> {
          int at = 1;
          s.setString(at++, humanWorkerId);
          for (String status : wanted) {
            s.setString(at++, status);
          }
          s.setLong(at++, after);
          s.setInt(at, limit);
        },
        r -> new InboxEntry(r.getLong(1), record(r, 2)));
  }

  @Override
  public List<StoredRecord> requestsDue(Instant notAfter, Set<String> sessionStatuses, int limit) {
    if (sessionStatuses.isEmpty() || limit < 1) {
      return List.of();
    }
    List<String> statuses = List.copyOf(sessionStatuses);
    // Partial index jarvis_protocol_record_open_request_expiry (migration V9): the kind and the
    // open statuses are literals, so that the planner sees the query is within the index's WHERE;
    // the expiry is the index's own expression.
    String expiry =
        dialect == Dialect.POSTGRESQL
            ? tables.requestExpiryFunction() + "(r.body)"
            : "julianday(upper(json_extract(r.body, '$.expires_at')))";
    String sessionStatus =
        dialect == Dialect.POSTGRESQL ? "w.status" : "json_extract(w.snapshot, '$.status')";
    return query(
        "SELECT r.kind, r.work_session_id, r.id, r.recorded_revision, r.recorded_event_hash,"
            + " r.body FROM "
            + tables.record()
            + " r JOIN "
            + tables.workSession()
            + " w ON w.id = r.work_session_id"
            + " WHERE r.kind = 'REQUEST' AND r.status IN ('pending', 'acknowledged') AND "
            + expiry
            + " <= ? AND NOT w.sealed AND "
            + sessionStatus
            + " IN ("
            + marks(statuses.size())
            + ") ORDER BY "
            + expiry
            + ", r.work_session_id, r.id LIMIT ?",
        s -> {
          int at = 1;
          if (dialect == Dialect.POSTGRESQL) {
            s.setObject(
                at++, java.time.OffsetDateTime.ofInstant(notAfter, java.time.ZoneOffset.UTC));
          } else {
            // A Julian day number as julianday() gives it; a millisecond more, since the double
            // may round either way: the host checks each Request's expiry exactly before writing.
            s.setDouble(at++, (notAfter.toEpochMilli() + 1) / 86_400_000.0 + 2_440_587.5);
          }
          for (String status : statuses) {
            s.setString(at++, status);
          }
          s.setInt(at, limit);
        },
        JdbcHostStores::record);
  }

  /**
   * A top-level text member of a JSON text column, as the indexes have it: on PostgreSQL a column
   * of its own that the store writes beside the text (migration V6), on SQLite the V4 expression.
   */
  private String json(String column, String member) {
    return dialect == Dialect.POSTGRESQL
        ? member
        : "json_extract(" + column + ", '$." + member + "')";
  }

  private static String marks(int count) {
    return String.join(", ", java.util.Collections.nCopies(count, "?"));
  }

  /**
   * Binds {@code keys}, then {@code statuses}, as the parameters of a query ending in {@code status
   * IN (}{@link #marks}{@code )}.
   */
  private static Binder texts(List<String> keys, List<String> statuses) {
    return s -> {
      int at = 1;
      for (String key : keys) {
        s.setString(at++, key);
      }
      for (String status : statuses) {
        s.setString(at++, status);
      }
    };
  }

  /** The columns {@link #record(ResultSet)} reads, from the records table. */
  private String recordColumns() {
    return "SELECT kind, work_session_id, id, recorded_revision, recorded_event_hash, body FROM "
        + tables.record();
  }

  private static StoredRecord record(ResultSet r) throws SQLException {
    return record(r, 1);
  }

  /** The record whose {@link #recordColumns} start at column {@code from}. */
  private static StoredRecord record(ResultSet r, int from) throws SQLException {
    String workSessionId = r.getString(from + 1);
    long revision = r.getLong(from + 3);
    Optional<ChainCursor> recordedAt =
        r.wasNull()
            ? Optional.empty()
            : Optional.of(new ChainCursor(revision, r.getString(from + 4)));
    return new StoredRecord(
        RecordKind.valueOf(r.getString(from)),
        r.getString(from + 2),
        workSessionId.isEmpty() ? Optional.empty() : Optional.of(workSessionId),
        JsonText.read(r.getString(from + 5)),
        recordedAt);
  }

  @Override
  public Optional<StoredRecord> find(RecordKind kind, String id) {
    return find(kind, "", id);
  }

  @Override
  public Optional<StoredRecord> find(RecordKind kind, String workSessionId, String id) {
    return one(
        recordColumns() + " WHERE kind = ? AND work_session_id = ? AND id = ?",
        s -> {
          s.setString(1, kind.name());
          s.setString(2, workSessionId);
          s.setString(3, id);
        },
        JdbcHostStores::record);
  }

  /**
   * One query: the Actor's row joined to the Worker's row that its body's {@code worker_id} names
   * (both on the records table's key).
   */
  @Override
  public Optional<ActorWithWorker> actorWithWorker(String actorId) {
    String workerId =
        dialect == Dialect.POSTGRESQL
            ? "(a.body::json ->> '" + Actor.JSON_PROPERTY_WORKER_ID + "')"
            : "json_extract(a.body, '$." + Actor.JSON_PROPERTY_WORKER_ID + "')";
    return one(
        "SELECT a.kind, a.work_session_id, a.id, a.recorded_revision, a.recorded_event_hash,"
            + " a.body, w.kind, w.work_session_id, w.id, w.recorded_revision,"
            + " w.recorded_event_hash, w.body FROM "
            + tables.record()
            + " a LEFT JOIN "
            + tables.record()
            + " w ON w.kind = ? AND w.work_session_id = '' AND w.id = "
            + workerId
            + " WHERE a.kind = ? AND a.work_session_id = '' AND a.id = ?",
        s -> {
          s.setString(1, RecordKind.WORKER.name());
          s.setString(2, RecordKind.ACTOR.name());
          s.setString(3, actorId);
        },
        r ->
            new ActorWithWorker(
                record(r, 1),
                r.getString(7) == null ? Optional.empty() : Optional.of(record(r, 7))));
  }

  @Override
  public List<StoredRecord> actorsOf(String workerId) {
    // Partial index jarvis_protocol_record_actor_by_worker (migration V8): its expression and its
    // WHERE written as it has them, so that the planner uses it.
    String worker =
        dialect == Dialect.POSTGRESQL
            ? "((body::jsonb) ->> '" + Actor.JSON_PROPERTY_WORKER_ID + "')"
            : "json_extract(body, '$." + Actor.JSON_PROPERTY_WORKER_ID + "')";
    return query(
        recordColumns()
            + " WHERE kind = 'ACTOR' AND work_session_id = '' AND "
            + worker
            + " = ? ORDER BY write_order",
        s -> s.setString(1, workerId),
        JdbcHostStores::record);
  }

  @Override
  public Optional<StoredRecord> findInAnyWorkSession(RecordKind kind, String id) {
    // Index protocol_record_by_kind_id (migration V2).
    return one(
        recordColumns()
            + " WHERE kind = ? AND id = ? AND work_session_id <> '' ORDER BY write_order LIMIT 1",
        s -> {
          s.setString(1, kind.name());
          s.setString(2, id);
        },
        JdbcHostStores::record);
  }

  @Override
  public List<StoredRecord> inSession(RecordKind kind, String workSessionId) {
    return query(
        recordColumns() + " WHERE work_session_id = ? AND kind = ? ORDER BY write_order",
        s -> {
          s.setString(1, workSessionId);
          s.setString(2, kind.name());
        },
        JdbcHostStores::record);
  }

  @Override
  public List<StoredRecord> inSession(RecordKind kind, String workSessionId, Set<String> statuses) {
    if (statuses.isEmpty()) {
      return List.of();
    }
    List<String> wanted = List.copyOf(statuses);
    return query(
        recordColumns()
            + " WHERE work_session_id = ? AND kind = ? AND status IN ("
            + marks(wanted.size())
            + ") ORDER BY write_order",
        texts(List.of(workSessionId, kind.name()), wanted),
        JdbcHostStores::record);
  }

  @Override
  public Optional<Entry> find(Scope scope, Instant notBefore) {
    try (Connection c = pool.getConnection()) {
      return entry(c, scope, notBefore);
    } catch (SQLException e) {
      throw failure("query failed", e);
    }
  }

  private Optional<Entry> entry(Connection c, Scope scope, Instant notBefore) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement(
            "SELECT fingerprint, status, headers, body, stored_at_micros FROM "
                + tables.idempotency()
                + " WHERE actor_id = ? AND operation_id = ? AND protocol_version = ?"
                + " AND idempotency_key = ? AND stored_at_micros >= ?")) {
      scope(s, scope);
      s.setLong(5, micros(notBefore));
      try (ResultSet r = s.executeQuery()) {
        if (!r.next()) {
          return Optional.empty();
        }
        return Optional.of(
            new Entry(
                r.getString(1),
                new StoredResponse(r.getInt(2), JsonText.headers(r.getString(3)), r.getBytes(4)),
                Instant.EPOCH.plus(r.getLong(5), ChronoUnit.MICROS)));
      }
    }
  }

  @Override
  public int deleteExpired(Instant notBefore, int limit) {
    String sql =
        "DELETE FROM "
            + tables.idempotency()
            + " WHERE (actor_id, operation_id, protocol_version, idempotency_key) IN ("
            + " SELECT actor_id, operation_id, protocol_version, idempotency_key"
            + " FROM "
            + tables.idempotency()
            + " WHERE stored_at_micros < ?"
            + " ORDER BY stored_at_micros LIMIT ?"
            + dialect.skipLocked()
            + ")";
    try (Connection c = pool.getConnection();
        PreparedStatement s = c.prepareStatement(sql)) {
      s.setLong(1, micros(notBefore));
      s.setInt(2, limit);
      return s.executeUpdate();
    } catch (SQLException e) {
      throw failure("retention cleanup failed", e);
    }
  }

  /** Microseconds since the epoch: PostgreSQL's precision, kept by both databases. */
  private static long micros(Instant instant) {
    return ChronoUnit.MICROS.between(Instant.EPOCH, instant);
  }
}
