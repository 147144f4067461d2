package dev.jarvis.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.host.HostStores;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.store.tck.testing.PostgresTestSchema;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Migration V9 on a PostgreSQL database holding Requests from before it: the expiry sweep's query
 * finds them by the instant their {@code expires_at} names, whatever offset the spec allowed
 * (PostgreSQL's own input refuses offsets past ±15:59), and answers from the partial index.
 */
class RequestExpiryIndexTest {

  private static final Set<String> LIVE = Set.of("active", "waiting_on_human");

  private PostgresTestSchema schema;

  @AfterEach
  void dropSchema() throws Exception {
    if (schema != null) {
      schema.close();
    }
  }

  @Test
  void requestsStoredBeforeTheMigrationAreFoundByTheInstantTheirExpiryNames() throws Exception {
    schema = PostgresTestSchema.create("jarvis_v9");
    String prefix = schema.name() + ".";
    migrate("7");
    try (Connection c = DriverManager.getConnection(schema.url())) {
      try (Statement s = c.createStatement()) {
        s.executeUpdate(
            "INSERT INTO "
                + prefix
                + "jarvis_work_session (id, revision, last_event_hash, snapshot, status)"
                + " VALUES ('ws-1', 1, 'sha256:x', '{\"id\":\"ws-1\",\"status\":\"active\"}',"
                + " 'active')");
      }
      try (PreparedStatement s =
          c.prepareStatement(
              "INSERT INTO "
                  + prefix
                  + "jarvis_protocol_record (kind, work_session_id, id, status, body)"
                  + " VALUES ('REQUEST', 'ws-1', ?, 'pending', ?)")) {
        for (String[] row :
            new String[][] {
              // 2026-06-11T18:01:00Z: a day's offset, beyond what timestamptz input takes
              {"req-far-east", "2026-06-12T17:00:00+23:59"},
              {"req-lower-case", "2026-06-12t18:00:00z"},
              {"req-later", "2026-06-12T18:30:00Z"},
              {"req-unreadable", "not a time"}
            }) {
          s.setString(1, row[0]);
          s.setString(2, "{\"id\":\"" + row[0] + "\",\"expires_at\":\"" + row[1] + "\"}");
          s.executeUpdate();
        }
      }
    }
    migrate("latest");

    try (HostStores stores =
        JdbcHostStores.open(JdbcStoreSettings.of(schema.url()).withSchema(schema.name()))) {
      assertEquals(
          List.of("req-far-east", "req-lower-case"),
          stores.records().requestsDue(Instant.parse("2026-06-12T18:10:00Z"), LIVE, 10).stream()
              .map(StoredRecord::id)
              .toList());
      assertEquals(
          List.of("req-far-east"),
          stores.records().requestsDue(Instant.parse("2026-06-11T18:01:00Z"), LIVE, 10).stream()
              .map(StoredRecord::id)
              .toList(),
          "17:00 at +23:59 is 18:01 UTC the day before");
    }
    try (Connection c = DriverManager.getConnection(schema.url());
        Statement s = c.createStatement()) {
      s.execute("SET enable_seqscan = off");
      StringBuilder plan = new StringBuilder();
      try (ResultSet r =
          s.executeQuery(
              "EXPLAIN SELECT id FROM "
                  + prefix
                  + "jarvis_protocol_record WHERE kind = 'REQUEST'"
                  + " AND status IN ('pending', 'acknowledged') AND "
                  + prefix
                  + "jarvis_request_expiry(body) <= now() ORDER BY "
                  + prefix
                  + "jarvis_request_expiry(body), work_session_id, id LIMIT 100")) {
        while (r.next()) {
          plan.append(r.getString(1)).append('\n');
        }
      }
      assertTrue(
          plan.toString().contains("jarvis_protocol_record_open_request_expiry"),
          "the due query reads the partial index:\n" + plan);
    }
  }

  private void migrate(String target) {
    Flyway.configure()
        .dataSource(schema.url(), null, null)
        .locations(Dialect.POSTGRESQL.migrations())
        .table("jarvis_schema_history")
        .schemas(schema.name())
        .target(target)
        .load()
        .migrate();
  }
}
