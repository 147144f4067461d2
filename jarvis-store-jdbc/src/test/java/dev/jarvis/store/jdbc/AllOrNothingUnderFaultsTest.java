package dev.jarvis.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.host.CommitResult;
import dev.jarvis.host.HostStores;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.StoreUnavailableException;
import dev.jarvis.store.tck.testing.PostgresTestSchema;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A unit of work is all-or-nothing whatever the driver does: a fault injected at every statement of
 * an append (before the database saw it, or after, its answer lost), with the rollback failing too
 * or not, leaves nothing of the unit, keeps the first error and evicts a connection whose rollback
 * failed; a commit whose answer is lost is an unknown outcome that the same key settles. On
 * PostgreSQL a unit without a step is one call in autocommit, with no commit of its own: the call's
 * lost answer is then the unknown outcome, and a failure the database reported wrote nothing.
 */
class AllOrNothingUnderFaultsTest {

  private static final String WS = "ws-faults";

  @TempDir Path dir;
  private PostgresTestSchema schema;
  private HostStores stores;
  private FailingDriver driver;
  private String database;

  @AfterEach
  void close() throws Exception {
    if (driver != null) {
      driver.disarm();
    }
    if (stores != null) {
      stores.close();
    }
    if (schema != null) {
      schema.close();
    }
  }

  private void open(String database) throws SQLException {
    this.database = database;
    driver = new FailingDriver(database);
    JdbcStoreSettings settings;
    if (database.equals("postgresql")) {
      schema = PostgresTestSchema.create("jarvis_faults");
      settings = JdbcStoreSettings.of(schema.url()).withSchema(schema.name());
    } else {
      settings = JdbcStoreSettings.of("jdbc:sqlite:" + dir.resolve("faults.sqlite"));
    }
    stores = JdbcHostStores.open(settings.withPoolSize(2), driver);
  }

  /** The WorkSession's genesis, committed without faults: the cursor an append starts from. */
  private ChainCursor genesis() {
    assertEquals(CommitResult.Outcome.COMMITTED, stores.commit(Units.genesis(WS)).outcome());
    return stores.sessions().find(WS).orElseThrow().cursor();
  }

  /**
   * The unit as a transaction with a commit of its own: on PostgreSQL, with a step (as an outbox's
   * unit has, here one that writes nothing), since a unit without one is a call in autocommit.
   */
  private Mutation transaction(Mutation unit) {
    return database.equals("postgresql") ? unit.within(inside -> {}) : unit;
  }

  /** How many statements the append runs, counted on a dry run in another WorkSession. */
  private int statementsOfAnAppend() {
    stores.commit(Units.genesis("ws-dry"));
    ChainCursor at = stores.sessions().find("ws-dry").orElseThrow().cursor();
    driver.count();
    CommitResult result = stores.commit(transaction(Units.append("ws-dry", at, "k-dry", 10)));
    driver.disarm();
    assertEquals(CommitResult.Outcome.COMMITTED, result.outcome());
    return driver.statements();
  }

  /** Nothing of the append of key {@code key} at {@code at} is stored. */
  private void assertNothingOf(String key, ChainCursor at, String after) {
    assertEquals(at, stores.sessions().find(WS).orElseThrow().cursor(), after + ": cursor moved");
    assertEquals(at.revision(), stores.sessions().events(WS).size(), after + ": an event stayed");
    assertTrue(
        stores.idempotency().find(Units.scope(key), Instant.EPOCH).isEmpty(),
        after + ": the idempotency record stayed without its event");
    assertTrue(
        stores.records().find(RecordKind.REVIEW, WS, "review-" + key).isEmpty(),
        after + ": the record stayed");
    assertEquals(0, stores.sessions().countCiting(WS, "evidence:" + key), after + ": citation");
  }

  /** The connection a fault struck is closed (evicted), by a deadline: HikariCP closes it async. */
  private void assertEvicted(String after) throws SQLException {
    Connection faulted = driver.faulted().orElseThrow(() -> new AssertionError("no fault struck"));
    Instant deadline = Instant.now().plus(Duration.ofSeconds(10));
    while (!faulted.isClosed()) {
      if (Instant.now().isAfter(deadline)) {
        fail(after + ": the connection whose rollback failed went back to the pool");
      }
      LockSupport.parkNanos(Duration.ofMillis(5).toNanos()); // a poll, not a wait for an event
    }
  }

  @ParameterizedTest(name = "on {0}")
  @ValueSource(strings = {"sqlite", "postgresql"})
  void aFaultAtAnyStatementOfAnAppendLeavesNothingOfIt(String database) throws Exception {
    open(database);
    int statements = statementsOfAnAppend();
    if (database.equals("sqlite")) {
      assertTrue(statements >= 6, "claim, session, event, citation, id, record: " + statements);
    } else {
      assertEquals(1, statements, "PostgreSQL: the whole unit is one call of jarvis_commit");
    }
    ChainCursor at = genesis();
    for (FailingDriver.When when : FailingDriver.When.values()) {
      for (boolean rollbackFails : new boolean[] {false, true}) {
        for (int n = 1; n <= statements; n++) {
          String after =
              "statement " + n + " failing " + when + (rollbackFails ? ", rollback failing" : "");
          Mutation append = transaction(Units.append(WS, at, "k-1", 10));
          driver.arm(n, when, Optional.empty(), rollbackFails);
          StoreUnavailableException thrown =
              assertThrows(StoreUnavailableException.class, () -> stores.commit(append), after);
          driver.disarm();
          assertEquals(StoreUnavailableException.Outcome.NOT_WRITTEN, thrown.outcome(), after);
          // The first error is kept; a failed rollback is added to it, never put in its place.
          SQLException first = (SQLException) thrown.getCause();
          assertTrue(first.getMessage().contains("statement " + n), after + ": " + first);
          assertEquals(rollbackFails ? 1 : 0, first.getSuppressed().length, after);
          if (rollbackFails) {
            assertEvicted(after);
          }
          assertNothingOf("k-1", at, after);
        }
      }
    }
    // Nothing of the failed tries holds the key or the chain: the same unit commits whole.
    assertEquals(
        CommitResult.Outcome.COMMITTED, stores.commit(Units.append(WS, at, "k-1", 10)).outcome());
    assertEquals(at.revision() + 1, stores.sessions().events(WS).size());
  }

  @ParameterizedTest(name = "on {0}")
  @ValueSource(strings = {"sqlite", "postgresql"})
  void readinessIsDownWhileTheDatabaseCannotWriteAndUpOnceItCanWithoutARestart(String database)
      throws Exception {
    open(database);
    ChainCursor at = genesis();
    assertTrue(stores.ready());
    // Disk full: every statement of this thread fails, the probe's among them.
    driver.failAll();
    assertThrows(
        StoreUnavailableException.class, () -> stores.commit(Units.append(WS, at, "k-4", 10)));
    assertFalse(stores.ready(), "reads answer, but nothing can be written");
    assertFalse(stores.ready(), "still full");
    driver.disarm();
    assertTrue(stores.ready(), "space returned: the probe write commits");
    assertEquals(
        CommitResult.Outcome.COMMITTED, stores.commit(Units.append(WS, at, "k-4", 10)).outcome());
    assertTrue(stores.idempotency().find(Units.scope("k-4"), Instant.EPOCH).isPresent());
  }

  @ParameterizedTest(name = "on {0}")
  @ValueSource(strings = {"sqlite", "postgresql"})
  void aCommitThatNeverReachedTheDatabaseIsAnUnknownOutcomeThatWroteNothing(String database)
      throws Exception {
    open(database);
    ChainCursor at = genesis();
    driver.arm(0, FailingDriver.When.BEFORE, Optional.of(FailingDriver.When.BEFORE), false);
    StoreUnavailableException thrown =
        assertThrows(
            StoreUnavailableException.class,
            () -> stores.commit(transaction(Units.append(WS, at, "k-2", 10))));
    driver.disarm();
    assertEquals(StoreUnavailableException.Outcome.UNKNOWN, thrown.outcome());
    assertEvicted("a failed commit");
    assertNothingOf("k-2", at, "a commit that never ran");
    // The retry with the same key applies it once.
    assertEquals(
        CommitResult.Outcome.COMMITTED, stores.commit(Units.append(WS, at, "k-2", 10)).outcome());
  }

  @ParameterizedTest(name = "on {0}")
  @ValueSource(strings = {"sqlite", "postgresql"})
  void aCommitWhoseAnswerWasLostIsSettledByTheSameKey(String database) throws Exception {
    open(database);
    ChainCursor at = genesis();
    Mutation append = transaction(Units.append(WS, at, "k-3", 10));
    driver.arm(0, FailingDriver.When.BEFORE, Optional.of(FailingDriver.When.AFTER), false);
    StoreUnavailableException thrown =
        assertThrows(StoreUnavailableException.class, () -> stores.commit(append));
    driver.disarm();
    assertEquals(StoreUnavailableException.Outcome.UNKNOWN, thrown.outcome());
    // It did commit: the event, the record and the idempotency record, all of them.
    assertEquals(at.revision() + 1, stores.sessions().events(WS).size());
    assertTrue(stores.records().find(RecordKind.REVIEW, WS, "review-k-3").isPresent());
    CommitResult retry = stores.commit(append);
    assertEquals(CommitResult.Outcome.KEY_TAKEN, retry.outcome());
    assertEquals(
        append.claim().orElseThrow().entry().response(),
        retry.firstResponse().orElseThrow().response());
    assertFalse(stores.sessions().events(WS).size() > at.revision() + 1, "applied twice");
  }

  @Test
  void onPostgresACallAloneThatTheDatabaseRefusedWroteNothingAndNeedsNoRollback() throws Exception {
    open("postgresql");
    ChainCursor at = genesis();
    driver.arm(1, FailingDriver.When.BEFORE, Optional.empty(), true);
    StoreUnavailableException thrown =
        assertThrows(
            StoreUnavailableException.class, () -> stores.commit(Units.append(WS, at, "k-5", 10)));
    driver.disarm();
    assertEquals(StoreUnavailableException.Outcome.NOT_WRITTEN, thrown.outcome());
    assertEquals(0, thrown.getCause().getSuppressed().length, "no rollback was tried");
    assertTrue(driver.faulted().orElseThrow().isValid(1), "the connection stays in the pool");
    assertNothingOf("k-5", at, "a refused call");
    assertEquals(
        CommitResult.Outcome.COMMITTED, stores.commit(Units.append(WS, at, "k-5", 10)).outcome());
  }

  @Test
  void onPostgresACallAloneWhoseAnswerWasLostIsAnUnknownOutcomeThatTheSameKeySettles()
      throws Exception {
    open("postgresql");
    ChainCursor at = genesis();
    Mutation append = Units.append(WS, at, "k-6", 10);
    driver.arm(1, FailingDriver.When.AFTER, Optional.empty(), false);
    StoreUnavailableException thrown =
        assertThrows(StoreUnavailableException.class, () -> stores.commit(append));
    driver.disarm();
    assertEquals(StoreUnavailableException.Outcome.UNKNOWN, thrown.outcome());
    assertEvicted("a call whose answer was lost");
    // It did commit, whole: the call was its own transaction.
    assertEquals(at.revision() + 1, stores.sessions().events(WS).size());
    assertTrue(stores.records().find(RecordKind.REVIEW, WS, "review-k-6").isPresent());
    CommitResult retry = stores.commit(append);
    assertEquals(CommitResult.Outcome.KEY_TAKEN, retry.outcome());
    assertEquals(
        append.claim().orElseThrow().entry().response(),
        retry.firstResponse().orElseThrow().response());
    assertEquals(at.revision() + 1, stores.sessions().events(WS).size(), "applied twice");
  }
}
