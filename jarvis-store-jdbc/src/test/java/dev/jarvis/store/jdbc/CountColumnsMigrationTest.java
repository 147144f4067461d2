package dev.jarvis.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jarvis.host.RecordKind;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.store.tck.testing.PostgresTestSchema;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.util.List;
import java.util.Set;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Migration V6 on a PostgreSQL database written before it: the per-principal counts, which now read
 * plain columns instead of parsing the stored JSON, still count the WorkSessions and Requests
 * stored before, as they did on V5.
 */
class CountColumnsMigrationTest {

  private PostgresTestSchema schema;

  @AfterEach
  void dropSchema() throws Exception {
    if (schema != null) {
      schema.close();
    }
  }

  @Test
  void workSessionsAndRequestsStoredBeforeTheMigrationAreStillCounted() throws Exception {
    schema = PostgresTestSchema.create("jarvis_v6");
    String url = schema.url();
    String prefix = schema.name() + ".";
    Flyway.configure()
        .dataSource(url, null, null)
        .locations(Dialect.POSTGRESQL.migrations())
        .table("jarvis_schema_history")
        .schemas(schema.name())
        .target("5")
        .load()
        .migrate();
    try (Connection c = DriverManager.getConnection(url)) {
      try (PreparedStatement s =
          c.prepareStatement(
              "INSERT INTO "
                  + prefix
                  + "jarvis_work_session (id, revision, last_event_hash, snapshot)"
                  + " VALUES (?, 1, 'sha256:x', ?)")) {
        for (String[] row :
            new String[][] {{"ws-1", "active"}, {"ws-2", "active"}, {"ws-3", "closed"}}) {
          s.setString(1, row[0]);
          s.setString(
              2,
              "{\"id\":\""
                  + row[0]
                  + "\",\"created_by_actor_id\":\"actor-1\",\"status\":\""
                  + row[1]
                  + "\"}");
          s.executeUpdate();
        }
      }
      try (PreparedStatement s =
          c.prepareStatement(
              "INSERT INTO "
                  + prefix
                  + "jarvis_protocol_record (kind, work_session_id, id, status, body)"
                  + " VALUES ('REQUEST', 'ws-1', ?, ?, ?)")) {
        for (String[] row : new String[][] {{"req-1", "pending"}, {"req-2", "approved"}}) {
          s.setString(1, row[0]);
          s.setString(2, row[1]);
          s.setString(
              3,
              "{\"id\":\""
                  + row[0]
                  + "\",\"target_human_worker_id\":\"worker-h\",\"status\":\""
                  + row[1]
                  + "\"}");
          s.executeUpdate();
        }
      }
    }

    try (JdbcHostStores stores =
        JdbcHostStores.open(JdbcStoreSettings.of(url).withSchema(schema.name()).withPoolSize(2))) {
      assertEquals(2, stores.countCreatedBy("actor-1", Set.of("active")));
      assertEquals(3, stores.countCreatedBy("actor-1", Set.of("active", "closed")));
      assertEquals(0, stores.countCreatedBy("actor-2", Set.of("active")));
      assertEquals(
          List.of("req-1"),
          stores.requestsTargeting("worker-h", Set.of("pending")).stream()
              .map(StoredRecord::id)
              .toList());
      assertEquals(
          RecordKind.REQUEST,
          stores.find(RecordKind.REQUEST, "ws-1", "req-2").orElseThrow().kind());
    }
  }
}
