package dev.jarvis.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.jarvis.host.CommitResult;
import dev.jarvis.host.HostStores;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.RecordWrite;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.UnitOfWork;
import dev.jarvis.store.tck.testing.PostgresTestSchema;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a commit hook writes on the unit's {@code Connection} (an outbox row) commits with the
 * mutation or not at all, on both databases.
 */
class OutboxInTheUnitOfWorkTest {

  @TempDir Path dir;
  private PostgresTestSchema schema;
  private HostStores stores;

  @AfterEach
  void close() throws Exception {
    if (stores != null) {
      stores.close();
    }
    if (schema != null) {
      schema.close();
    }
  }

  private HostStores open(String database) throws SQLException {
    if (database.equals("postgresql")) {
      schema = PostgresTestSchema.create("jarvis_outbox");
      return JdbcHostStores.open(
          JdbcStoreSettings.of(schema.url()).withSchema(schema.name()).withPoolSize(2));
    }
    return StoreSpec.embedded(dir).open(Optional.empty());
  }

  private static StoredRecord policy(String id) {
    return StoredRecord.global(
        RecordKind.POLICY, id, JsonNodeFactory.instance.objectNode().put("id", id));
  }

  private static void execute(UnitOfWork unit, String sql) throws SQLException {
    Connection c = unit.resource(Connection.class).orElseThrow();
    try (Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  private long outboxRows() {
    long[] rows = new long[1];
    CommitResult result =
        stores.commit(
            Mutation.records(List.of())
                .within(
                    unit -> {
                      Connection c = unit.resource(Connection.class).orElseThrow();
                      try (Statement s = c.createStatement();
                          ResultSet r = s.executeQuery("SELECT count(*) FROM outbox")) {
                        r.next();
                        rows[0] = r.getLong(1);
                      }
                    }));
    assertEquals(CommitResult.Outcome.COMMITTED, result.outcome());
    return rows[0];
  }

  @ParameterizedTest(name = "on {0}")
  @ValueSource(strings = {"sqlite", "postgresql"})
  void anOutboxRowWrittenInTheUnitCommitsWithTheMutation(String database) throws Exception {
    stores = open(database);
    stores.commit(
        Mutation.records(List.of())
            .within(unit -> execute(unit, "CREATE TABLE outbox (note VARCHAR(100))")));
    CommitResult result =
        stores.commit(
            Mutation.records(List.of(RecordWrite.put(policy("policy-a"))))
                .within(unit -> execute(unit, "INSERT INTO outbox VALUES ('policy-a written')")));
    assertEquals(CommitResult.Outcome.COMMITTED, result.outcome());
    assertEquals(1, outboxRows());
    assertTrue(stores.records().find(RecordKind.POLICY, "policy-a").isPresent());
  }

  @ParameterizedTest(name = "on {0}")
  @ValueSource(strings = {"sqlite", "postgresql"})
  void aHookFailingAfterItWroteLeavesNeitherTheRowNorTheMutation(String database) throws Exception {
    stores = open(database);
    stores.commit(
        Mutation.records(List.of())
            .within(unit -> execute(unit, "CREATE TABLE outbox (note VARCHAR(100))")));
    RuntimeException thrown =
        assertThrows(
            RuntimeException.class,
            () ->
                stores.commit(
                    Mutation.records(List.of(RecordWrite.put(policy("policy-b"))))
                        .within(
                            unit -> {
                              execute(unit, "INSERT INTO outbox VALUES ('policy-b written')");
                              throw new IllegalStateException("the notifier refused it");
                            })));
    assertEquals("the notifier refused it", thrown.getMessage());
    assertEquals(0, outboxRows());
    assertTrue(stores.records().find(RecordKind.POLICY, "policy-b").isEmpty());
  }
}
