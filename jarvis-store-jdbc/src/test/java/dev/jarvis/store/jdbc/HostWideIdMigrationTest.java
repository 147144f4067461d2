package dev.jarvis.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jarvis.host.CommitResult.Outcome;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.RecordWrite;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.store.tck.testing.PostgresTestSchema;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.Optional;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Migration V3 (host-wide ids) on a database written before it: the first WorkSession to record an
 * id holds it; a WorkSession that got the same id through the old race keeps and updates its
 * record, and no further WorkSession can take the id.
 */
class HostWideIdMigrationTest {

  @TempDir Path dir;
  private PostgresTestSchema schema;

  @AfterEach
  void dropSchema() throws Exception {
    if (schema != null) {
      schema.close();
    }
  }

  @ParameterizedTest(name = "on {0}")
  @EnumSource(Dialect.class)
  void idsRecordedBeforeTheMigrationAreHeldByTheFirstWorkSessionToRecordThem(Dialect dialect)
      throws Exception {
    String url;
    String prefix;
    JdbcStoreSettings settings;
    if (dialect == Dialect.POSTGRESQL) {
      schema = PostgresTestSchema.create("jarvis_v3");
      url = schema.url();
      prefix = schema.name() + ".";
      settings = JdbcStoreSettings.of(url).withSchema(schema.name()).withPoolSize(2);
    } else {
      url = "jdbc:sqlite:" + dir.resolve("before-v3.sqlite");
      prefix = "";
      settings = JdbcStoreSettings.of(url).withPoolSize(2);
    }
    var flyway =
        Flyway.configure()
            .dataSource(url, null, null)
            .locations(dialect.migrations())
            .table("jarvis_schema_history")
            .target("2");
    if (schema != null) {
      flyway.schemas(schema.name());
    }
    flyway.load().migrate();
    try (Connection c = DriverManager.getConnection(url);
        PreparedStatement s =
            c.prepareStatement(
                "INSERT INTO "
                    + prefix
                    + "protocol_record (kind, work_session_id, id, status, body)"
                    + " VALUES ('REQUEST', ?, 'req-1', 'pending', ?)")) {
      // ws-b won the old race after ws-a: both hold req-1.
      for (String ws : List.of("ws-a", "ws-b")) {
        s.setString(1, ws);
        s.setString(2, "{\"id\":\"req-1\",\"work_session_id\":\"" + ws + "\"}");
        s.executeUpdate();
      }
    }

    try (JdbcHostStores stores = JdbcHostStores.open(settings)) {
      assertEquals(
          Optional.of("ws-a"),
          stores.findInAnyWorkSession(RecordKind.REQUEST, "req-1").orElseThrow().workSessionId());
      assertEquals(Outcome.COMMITTED, put(stores, "ws-a").outcome(), "the holder updates");
      assertEquals(Outcome.COMMITTED, put(stores, "ws-b").outcome(), "the old loser keeps its own");
      assertEquals(Outcome.CONFLICT, put(stores, "ws-c").outcome(), "nobody else takes it");
    }
  }

  private static dev.jarvis.host.CommitResult put(JdbcHostStores stores, String ws) {
    var body = dev.jarvis.core.JarvisJson.mapper().createObjectNode();
    body.put("id", "req-1");
    body.put("work_session_id", ws);
    body.put("status", "approved");
    return stores.commit(
        Mutation.records(
            List.of(
                RecordWrite.put(StoredRecord.inSession(RecordKind.REQUEST, "req-1", ws, body)))));
  }
}
