package dev.jarvis.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.host.CommitResult;
import dev.jarvis.host.HostStores;
import dev.jarvis.host.IdempotencyStore;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.StoreUnavailableException;
import dev.jarvis.store.tck.testing.PostgresTestSchema;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every wait on the database has a bound, and past it the store says it cannot serve now ({@link
 * StoreUnavailableException}, which the host answers 503): a pool with no free connection, a row
 * lock another transaction holds, a statement that runs too long, SQLite's write lock.
 */
class BoundedWaitsTest {

  private static final String WS = "ws-waits";
  private static final Duration SHORT = Duration.ofMillis(300);

  /** What the bound allows on a loaded 2-core machine, far below any default wait it replaces. */
  private static final Duration WITHIN = Duration.ofSeconds(3);

  private static final StoreTimeouts TIMEOUTS =
      StoreTimeouts.defaults()
          .withPoolWait(SHORT)
          .withStatementTimeout(Duration.ofMillis(600))
          .withLockTimeout(SHORT)
          .withBusyTimeout(SHORT);

  @TempDir Path dir;
  private PostgresTestSchema schema;
  private HostStores stores;
  private String url;

  @AfterEach
  void close() throws Exception {
    if (stores != null) {
      stores.close();
    }
    if (schema != null) {
      schema.close();
    }
  }

  private void open(String database, int poolSize) throws SQLException {
    JdbcStoreSettings settings;
    if (database.equals("postgresql")) {
      schema = PostgresTestSchema.create("jarvis_waits");
      url =
          schema.url()
              + (schema.url().contains("?") ? "&" : "?")
              + "currentSchema="
              + schema.name();
      settings = JdbcStoreSettings.of(schema.url()).withSchema(schema.name());
    } else {
      url = "jdbc:sqlite:" + dir.resolve("waits.sqlite");
      settings = JdbcStoreSettings.of(url);
    }
    stores = JdbcHostStores.open(settings.withPoolSize(poolSize).withTimeouts(TIMEOUTS));
    assertEquals(CommitResult.Outcome.COMMITTED, stores.commit(Units.genesis(WS)).outcome());
  }

  private ChainCursor cursor() {
    return stores.sessions().find(WS).orElseThrow().cursor();
  }

  /** Runs {@code call}, which must fail as a store fault, within {@link #WITHIN}. */
  private StoreUnavailableException failsInTime(Runnable call) {
    long start = System.nanoTime();
    StoreUnavailableException thrown = assertThrows(StoreUnavailableException.class, call::run);
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertTrue(took.compareTo(WITHIN) < 0, "took " + took);
    assertTrue(took.compareTo(SHORT.minusMillis(50)) >= 0, "did not wait its bound: " + took);
    // For docs/reliability.md: how far past its bound a fault is answered.
    System.out.printf("store fault after %d ms: %s%n", took.toMillis(), thrown.getCause());
    return thrown;
  }

  @ParameterizedTest(name = "on {0}")
  @ValueSource(strings = {"sqlite", "postgresql"})
  void aRequestWaitsForAPooledConnectionNoLongerThanThePoolWait(String database) throws Exception {
    // PostgreSQL: Flyway migrates on two connections. SQLite: one, and a second unit would wait
    // for the write lock, not for the pool.
    int poolSize = database.equals("sqlite") ? 1 : 2;
    open(database, poolSize);
    ChainCursor at = cursor();
    CountDownLatch holding = new CountDownLatch(poolSize);
    CountDownLatch release = new CountDownLatch(1);
    // Units that hold the pool's connections until told.
    List<CompletableFuture<CommitResult>> holders = new ArrayList<>();
    for (int i = 0; i < poolSize; i++) {
      holders.add(
          CompletableFuture.supplyAsync(
              () ->
                  stores.commit(
                      Mutation.records(List.of())
                          .within(
                              unit -> {
                                holding.countDown();
                                release.await(30, TimeUnit.SECONDS);
                              }))));
    }
    assertTrue(holding.await(30, TimeUnit.SECONDS));
    try {
      StoreUnavailableException thrown =
          failsInTime(() -> stores.commit(Units.append(WS, at, "k-1", 10)));
      assertEquals(StoreUnavailableException.Outcome.NOT_WRITTEN, thrown.outcome());
      failsInTime(() -> stores.sessions().find(WS));
    } finally {
      release.countDown();
    }
    for (CompletableFuture<CommitResult> holder : holders) {
      assertEquals(CommitResult.Outcome.COMMITTED, holder.get(30, TimeUnit.SECONDS).outcome());
    }
    // The pool serves again once the connection is back.
    assertEquals(
        CommitResult.Outcome.COMMITTED, stores.commit(Units.append(WS, at, "k-1", 10)).outcome());
  }

  @Test
  void onAnApplicationsDataSourceTheIdempotencyLookupAndCleanupBehindALockEndAtTheirBound()
      throws Exception {
    open("postgresql", 2);
    stores.close();
    org.postgresql.ds.PGSimpleDataSource app = new org.postgresql.ds.PGSimpleDataSource();
    app.setURL(schema.url());
    stores = JdbcHostStores.on(app, schema.name(), TIMEOUTS);
    IdempotencyStore.Scope scope =
        new IdempotencyStore.Scope("actor-1", "appendJarvisEvent", "v0.1", "k-looked-up");
    try (Connection other = DriverManager.getConnection(url)) {
      other.setAutoCommit(false);
      try (Statement s = other.createStatement()) {
        s.execute("LOCK TABLE jarvis_idempotency_record IN ACCESS EXCLUSIVE MODE");
      }
      // Preemptive: unbounded, the lookup would wait for this lock until the test is killed.
      Duration never = WITHIN.multipliedBy(2);
      assertTimeoutPreemptively(
          never, () -> failsInTime(() -> stores.idempotency().find(scope, Instant.EPOCH)));
      assertTimeoutPreemptively(
          never, () -> failsInTime(() -> stores.idempotency().deleteExpired(Instant.now(), 10)));
      other.rollback();
    }
    // The lock gone, both answer (positive control).
    assertEquals(Optional.empty(), stores.idempotency().find(scope, Instant.EPOCH));
    assertEquals(0, stores.idempotency().deleteExpired(Instant.EPOCH, 10));
  }

  @Test
  void anAppendBehindARowLockHeldElsewhereEndsAtTheLockTimeout() throws Exception {
    open("postgresql", 2);
    ChainCursor at = cursor();
    try (Connection other = DriverManager.getConnection(url)) {
      other.setAutoCommit(false);
      try (PreparedStatement s =
          other.prepareStatement("SELECT id FROM jarvis_work_session WHERE id = ? FOR UPDATE")) {
        s.setString(1, WS);
        s.executeQuery().close();
      }
      StoreUnavailableException thrown =
          failsInTime(() -> stores.commit(Units.append(WS, at, "k-lock", 10)));
      assertEquals("55P03", ((SQLException) thrown.getCause()).getSQLState());
      other.rollback();
    }
    assertEquals(
        CommitResult.Outcome.COMMITTED,
        stores.commit(Units.append(WS, at, "k-lock", 10)).outcome());
  }

  @Test
  void aMigrationWaitsForATableLockLongerThanTheRequestsLockTimeout() throws Exception {
    schema = PostgresTestSchema.create("jarvis_waits");
    url = schema.url() + "&currentSchema=" + schema.name();
    Flyway.configure()
        .dataSource(schema.url(), null, null)
        .schemas(schema.name())
        .locations(Dialect.POSTGRESQL.migrations())
        .table("jarvis_schema_history")
        .target("2")
        .load()
        .migrate();
    try (Connection holder = DriverManager.getConnection(url);
        Connection observer = DriverManager.getConnection(url)) {
      // An instance still serving on V2 holds the table V3 reads.
      holder.setAutoCommit(false);
      try (Statement s = holder.createStatement()) {
        s.execute("LOCK TABLE protocol_record IN ACCESS EXCLUSIVE MODE");
      }
      CompletableFuture<HostStores> opening =
          CompletableFuture.supplyAsync(
              () ->
                  JdbcHostStores.open(
                      JdbcStoreSettings.of(schema.url())
                          .withSchema(schema.name())
                          .withPoolSize(2)
                          .withTimeouts(TIMEOUTS)));
      int holderPid;
      try (Statement s = holder.createStatement();
          ResultSet r = s.executeQuery("SELECT pg_backend_pid()")) {
        r.next();
        holderPid = r.getInt(1);
      }
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!waitsOn(observer, holderPid)) {
        assertTrue(System.nanoTime() - deadline < 0, "the migration never reached the lock");
      }
      // Past the requests' lock timeout (300 ms) the migration is still waiting, not failed.
      assertThrows(TimeoutException.class, () -> opening.get(900, TimeUnit.MILLISECONDS));
      holder.rollback();
      stores = opening.get(30, TimeUnit.SECONDS);
    }
    assertEquals(CommitResult.Outcome.COMMITTED, stores.commit(Units.genesis(WS)).outcome());
  }

  private static boolean waitsOn(Connection observer, int holder) throws SQLException {
    try (PreparedStatement s =
        observer.prepareStatement(
            "SELECT count(*) FROM pg_stat_activity WHERE ? = ANY(pg_blocking_pids(pid))")) {
      s.setInt(1, holder);
      try (ResultSet r = s.executeQuery()) {
        r.next();
        return r.getInt(1) > 0;
      }
    }
  }

  @Test
  void aStatementThatRunsTooLongEndsAtTheStatementTimeout() throws Exception {
    open("postgresql", 2);
    StoreUnavailableException thrown =
        failsInTime(
            () ->
                stores.commit(
                    Mutation.records(List.of())
                        .within(
                            unit -> {
                              Connection c = unit.resource(Connection.class).orElseThrow();
                              try (Statement s = c.createStatement()) {
                                s.execute("SELECT pg_sleep(30)");
                              }
                            })));
    assertEquals("57014", ((SQLException) thrown.getCause()).getSQLState());
  }

  @Test
  void aWriterBehindSqlitesWriteLockEndsAtTheBusyTimeout() throws Exception {
    open("sqlite", 2);
    ChainCursor at = cursor();
    try (Connection other = DriverManager.getConnection(url);
        Statement s = other.createStatement()) {
      s.execute("BEGIN IMMEDIATE");
      failsInTime(() -> stores.commit(Units.append(WS, at, "k-busy", 10)));
      s.execute("ROLLBACK");
    }
    assertEquals(
        CommitResult.Outcome.COMMITTED,
        stores.commit(Units.append(WS, at, "k-busy", 10)).outcome());
  }
}
