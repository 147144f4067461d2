package dev.jarvis.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.host.CommitResult;
import dev.jarvis.host.IdempotencyStore;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.StoredResponse;
import dev.jarvis.store.tck.testing.PostgresTestSchema;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.Optional;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Migration V13 on both databases: an answer that is its unit's own event (appendJarvisEvent's) is
 * kept as a reference to the event row, without a second copy of the event nor its cursor headers,
 * and replays exactly the first answer, also after the store is reopened; an answer stored whole
 * before the migration still replays whole; a reference whose event row went missing is refused,
 * never answered with something else.
 */
class AnswerAsEventReferenceTest {

  private static final String WS = "ws-ref";

  @TempDir Path dir;
  private PostgresTestSchema schema;

  @AfterEach
  void dropSchema() throws Exception {
    if (schema != null) {
      schema.close();
    }
  }

  /** A database of one dialect, its URL and how to open the store on it. */
  private record Database(String url, Tables tables, JdbcStoreSettings settings) {
    JdbcHostStores open() {
      return JdbcHostStores.open(settings);
    }
  }

  private Database sqlite() {
    String url = "jdbc:sqlite:" + dir.resolve("ref.sqlite");
    return new Database(url, Tables.in(Optional.empty()), JdbcStoreSettings.of(url));
  }

  private Database postgresql() throws Exception {
    schema = PostgresTestSchema.create("jarvis_v13");
    return new Database(
        schema.url(),
        Tables.in(Optional.of(schema.name())),
        JdbcStoreSettings.of(schema.url()).withSchema(schema.name()));
  }

  @Test
  void onSqliteAnAnswerThatIsItsEventIsStoredOnceAndReplaysExactlyAfterAReopen() throws Exception {
    storedOnceAndReplayedExactly(sqlite());
  }

  @Test
  void onPostgresqlAnAnswerThatIsItsEventIsStoredOnceAndReplaysExactlyAfterAReopen()
      throws Exception {
    storedOnceAndReplayedExactly(postgresql());
  }

  private static void storedOnceAndReplayedExactly(Database db) throws Exception {
    Mutation append;
    IdempotencyStore.Entry first;
    try (JdbcHostStores stores = db.open()) {
      Mutation genesis = Units.genesis(WS);
      assertEquals(CommitResult.Outcome.COMMITTED, stores.commit(genesis).outcome());
      append = Units.appendAnsweredByItsEvent(WS, cursorAfterGenesis(genesis), "k-ref");
      first = append.claim().orElseThrow().entry();
      assertEquals(CommitResult.Outcome.COMMITTED, stores.commit(append).outcome());
      assertSameEntry(first, stores.idempotency().find(Units.scope("k-ref"), Units.T0).get());
    }
    try (Connection c = DriverManager.getConnection(db.url());
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT body, headers, event_work_session_id, event_sequence FROM "
                    + db.tables().idempotency())) {
      r.next();
      assertEquals(0, r.getBytes(1).length, "no second copy of the event");
      Map<String, String> headers = JsonText.headers(r.getString(2));
      assertFalse(headers.containsKey("Jarvis-WorkSession-Revision"), headers::toString);
      assertFalse(headers.containsKey("Jarvis-Last-Event-Hash"), headers::toString);
      assertEquals(WS, r.getString(3));
      assertEquals(2, r.getLong(4));
    }
    // A host restart: a new handle on the same data, the replay from the key and from a lookup.
    try (JdbcHostStores reopened = db.open()) {
      assertSameEntry(first, reopened.idempotency().find(Units.scope("k-ref"), Units.T0).get());
      ChainCursor now = reopened.sessions().find(WS).orElseThrow().cursor();
      CommitResult replay = reopened.commit(Units.appendAnsweredByItsEvent(WS, now, "k-ref"));
      assertEquals(CommitResult.Outcome.KEY_TAKEN, replay.outcome());
      assertSameEntry(first, replay.firstResponse().orElseThrow());
      assertEquals(now, reopened.sessions().find(WS).orElseThrow().cursor(), "nothing appended");
    }
  }

  @Test
  void onSqliteAnAnswerStoredWholeBeforeTheMigrationStillReplaysWhole() throws Exception {
    Database db = sqlite();
    storedWholeBeforeAndReplayedAfter(db, Dialect.SQLITE, null);
  }

  @Test
  void onPostgresqlAnAnswerStoredWholeBeforeTheMigrationStillReplaysWhole() throws Exception {
    Database db = postgresql();
    storedWholeBeforeAndReplayedAfter(db, Dialect.POSTGRESQL, schema.name());
  }

  private static void storedWholeBeforeAndReplayedAfter(
      Database db, Dialect dialect, String schemaName) throws Exception {
    var flyway =
        Flyway.configure()
            .dataSource(db.url(), null, null)
            .locations(dialect.migrations())
            .table("jarvis_schema_history")
            .target("12");
    if (schemaName != null) {
      flyway.schemas(schemaName);
    }
    flyway.load().migrate();
    // An appendJarvisEvent answer as V12 stored it: the event's bytes and both cursor headers.
    Mutation append = Units.appendAnsweredByItsEvent(WS, ChainCursor.GENESIS, "k-old");
    IdempotencyStore.Entry old = append.claim().orElseThrow().entry();
    try (Connection c = DriverManager.getConnection(db.url());
        PreparedStatement s =
            c.prepareStatement(
                "INSERT INTO "
                    + db.tables().idempotency()
                    + " (actor_id, operation_id, protocol_version, idempotency_key, fingerprint,"
                    + " status, headers, body, stored_at_micros) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
      IdempotencyColumns.bindScope(s, Units.scope("k-old"));
      s.setString(5, old.fingerprint());
      s.setInt(6, old.response().status());
      s.setString(7, JsonText.write(old.response().headers()));
      s.setBytes(8, old.response().body());
      s.setLong(9, IdempotencyColumns.micros(old.storedAt()));
      s.executeUpdate();
    }
    try (JdbcHostStores stores = db.open()) {
      assertSameEntry(old, stores.idempotency().find(Units.scope("k-old"), Units.T0).get());
      Mutation genesis = Units.genesis(WS);
      assertEquals(CommitResult.Outcome.COMMITTED, stores.commit(genesis).outcome());
      CommitResult replay =
          stores.commit(Units.appendAnsweredByItsEvent(WS, cursorAfterGenesis(genesis), "k-old"));
      assertEquals(CommitResult.Outcome.KEY_TAKEN, replay.outcome());
      assertSameEntry(old, replay.firstResponse().orElseThrow());
    }
  }

  @Test
  void onSqliteAReferenceToAMissingEventIsRefusedRatherThanAnsweredOtherwise() throws Exception {
    missingEventRefused(sqlite());
  }

  @Test
  void onPostgresqlAReferenceToAMissingEventIsRefusedRatherThanAnsweredOtherwise()
      throws Exception {
    missingEventRefused(postgresql());
  }

  private static void missingEventRefused(Database db) throws Exception {
    try (JdbcHostStores stores = db.open()) {
      Mutation genesis = Units.genesis(WS);
      stores.commit(genesis);
      Mutation append = Units.appendAnsweredByItsEvent(WS, cursorAfterGenesis(genesis), "k-gone");
      assertEquals(CommitResult.Outcome.COMMITTED, stores.commit(append).outcome());
      // No statement of the store deletes an event; an operator's hand on the table could.
      try (Connection c = DriverManager.getConnection(db.url());
          Statement s = c.createStatement()) {
        s.executeUpdate(
            "DELETE FROM " + db.tables().citation() + " WHERE work_session_id = '" + WS + "'");
        s.executeUpdate(
            "DELETE FROM "
                + db.tables().event()
                + " WHERE sequence = 2 AND work_session_id = '"
                + WS
                + "'");
      }
      assertThrows(
          JdbcStoreException.class,
          () -> stores.idempotency().find(Units.scope("k-gone"), Units.T0));
      ChainCursor now = stores.sessions().find(WS).orElseThrow().cursor();
      assertThrows(
          JdbcStoreException.class,
          () -> stores.commit(Units.appendAnsweredByItsEvent(WS, now, "k-gone")));
    }
  }

  private static ChainCursor cursorAfterGenesis(Mutation genesis) {
    return Units.cursorAfter(genesis.appendedEvent().orElseThrow());
  }

  private static void assertSameEntry(IdempotencyStore.Entry expected, IdempotencyStore.Entry got) {
    assertEquals(expected.fingerprint(), got.fingerprint());
    assertEquals(expected.storedAt(), got.storedAt());
    StoredResponse want = expected.response();
    StoredResponse have = got.response();
    assertEquals(want.status(), have.status());
    assertEquals(want.headers(), have.headers());
    assertArrayEquals(want.body(), have.body());
    assertEquals(
        new String(want.body(), StandardCharsets.UTF_8),
        new String(have.body(), StandardCharsets.UTF_8));
  }
}
