package dev.jarvis.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.host.ChainWrite;
import dev.jarvis.host.CommitResult;
import dev.jarvis.host.Mutation;
import dev.jarvis.store.tck.testing.PostgresTestSchema;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Migration V14 on PostgreSQL: jarvis_event has no foreign key to jarvis_work_session any more, and
 * still no event is stored without its WorkSession: the commit function stores an event only with
 * that WorkSession's genesis or append, whose condition held on the row.
 */
class EventWithoutForeignKeyTest {

  private PostgresTestSchema schema;

  @AfterEach
  void dropSchema() throws Exception {
    if (schema != null) {
      schema.close();
    }
  }

  @Test
  void anEventIsStoredOnlyWithItsWorkSessionsGenesisOrAppendThoughNoForeignKeyChecksIt()
      throws Exception {
    schema = PostgresTestSchema.create("jarvis_v14");
    Tables tables = Tables.in(java.util.Optional.of(schema.name()));
    try (JdbcHostStores stores =
        JdbcHostStores.open(JdbcStoreSettings.of(schema.url()).withSchema(schema.name()))) {
      // An append to a WorkSession nobody created: its condition fails, no event row.
      Mutation orphan = Units.append("ws-none", ChainCursor.GENESIS, "k-none", 0);
      assertEquals(CommitResult.Outcome.CONFLICT, stores.commit(orphan).outcome());
      // A seal carries no event; a genesis and an append store theirs.
      Mutation genesis = Units.genesis("ws-1");
      assertEquals(CommitResult.Outcome.COMMITTED, stores.commit(genesis).outcome());
      ChainCursor at = Units.cursorAfter(genesis.appendedEvent().orElseThrow());
      assertEquals(
          CommitResult.Outcome.COMMITTED,
          stores.commit(Units.append("ws-1", at, "k-1", 0)).outcome());
      assertEquals(
          CommitResult.Outcome.COMMITTED,
          stores
              .commit(
                  Mutation.of(
                      new ChainWrite.Seal(
                          "ws-1", stores.sessions().find("ws-1").orElseThrow().cursor()),
                      List.of()))
              .outcome());
      assertEquals(2, stores.sessions().events("ws-1").size());
    }
    try (Connection c = DriverManager.getConnection(schema.url());
        Statement s = c.createStatement()) {
      try (ResultSet r =
          s.executeQuery(
              "SELECT count(*) FROM pg_constraint WHERE contype = 'f' AND conrelid = '"
                  + tables.event()
                  + "'::regclass")) {
        r.next();
        assertEquals(0, r.getInt(1), "no foreign key on jarvis_event");
      }
      // The function itself refuses an event without a genesis or an append, whoever calls it.
      List<String> arguments = new java.util.ArrayList<>(Collections.nCopies(32, "NULL"));
      arguments.set(11, "'ws-none'");
      arguments.set(19, "2");
      arguments.set(20, "'ws-none.event.2'");
      arguments.set(21, "'{}'");
      String call =
          "SELECT o_outcome FROM "
              + tables.commitFunction()
              + "("
              + String.join(", ", arguments)
              + ")";
      SQLException refused = assertThrows(SQLException.class, () -> s.executeQuery(call));
      assertEquals("P0001", refused.getSQLState(), refused::getMessage);
      try (ResultSet r =
          s.executeQuery(
              "SELECT count(*) FROM " + tables.event() + " WHERE work_session_id = 'ws-none'")) {
        r.next();
        assertEquals(0, r.getInt(1));
      }
    }
  }
}
