package dev.jarvis.store.jdbc;

import static dev.jarvis.host.CommitResult.Outcome.COMMITTED;
import static dev.jarvis.host.CommitResult.Outcome.CONFLICT;
import static dev.jarvis.host.CommitResult.Outcome.KEY_TAKEN;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.notification.RequestNotification;
import dev.jarvis.host.ChainWrite;
import dev.jarvis.host.CommitResult;
import dev.jarvis.host.IdempotencyClaim;
import dev.jarvis.host.IdempotencyStore;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.RecordWrite;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.StoredResponse;
import dev.jarvis.store.tck.testing.PostgresTestSchema;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The two {@link UnitWriter}s are one behaviour in two dialects: the same units of work, fed to the
 * PL/pgSQL function call on PostgreSQL and to the statements one by one on SQLite, each unit in a
 * transaction of its own, end in the same outcomes and leave the same rows in every table the
 * writers write (the columns both dialects have, JSON compared as JSON, records in write order).
 */
class UnitWritersStoreAlikeTest {

  private static final String A = "ws-alike-a";
  private static final String B = "ws-alike-b";

  @TempDir Path dir;
  private PostgresTestSchema schema;

  @AfterEach
  void dropSchema() throws Exception {
    if (schema != null) {
      schema.close();
    }
  }

  /** A unit and the outcome both writers must give it. */
  private record Step(String what, Mutation unit, CommitResult.Outcome expected) {}

  @Test
  void theFunctionCallOnPostgresqlAndTheStatementsOnSqliteStoreTheSameUnitsAlike()
      throws Exception {
    schema = PostgresTestSchema.create("jarvis_alike");
    List<Step> steps = steps();

    // Each database migrated by the store itself, then written by its writer alone.
    String sqliteUrl = "jdbc:sqlite:" + dir.resolve("alike.sqlite");
    JdbcHostStores.open(JdbcStoreSettings.of(sqliteUrl)).close();
    JdbcHostStores.open(JdbcStoreSettings.of(schema.url()).withSchema(schema.name())).close();

    Map<String, List<String>> onSqlite;
    List<CommitResult.Outcome> sqliteOutcomes;
    Tables sqliteTables = Tables.in(Optional.empty());
    try (Connection c = DriverManager.getConnection(sqliteUrl)) {
      UnitWriter writer = UnitWriter.of(Dialect.SQLITE, sqliteTables);
      assertEquals(SqliteUnitWriter.class, writer.getClass());
      sqliteOutcomes = run(c, writer, steps);
      onSqlite = rows(c, sqliteTables);
    }
    Map<String, List<String>> onPostgresql;
    List<CommitResult.Outcome> postgresqlOutcomes;
    Tables postgresqlTables = Tables.in(Optional.of(schema.name()));
    try (Connection c = DriverManager.getConnection(schema.url())) {
      UnitWriter writer = UnitWriter.of(Dialect.POSTGRESQL, postgresqlTables);
      assertEquals(PlpgsqlUnitWriter.class, writer.getClass());
      postgresqlOutcomes = run(c, writer, steps);
      onPostgresql = rows(c, postgresqlTables);
    }

    List<CommitResult.Outcome> expected = steps.stream().map(Step::expected).toList();
    assertEquals(expected, sqliteOutcomes, "SQLite's outcomes");
    assertEquals(expected, postgresqlOutcomes, "PostgreSQL's outcomes");
    for (String table : onSqlite.keySet()) {
      assertEquals(onSqlite.get(table), onPostgresql.get(table), table);
    }
    // Not alike by being empty: every table holds what the committed units wrote.
    assertEquals(2, onSqlite.get("work_session").size());
    assertEquals(5, onSqlite.get("event").size());
    assertEquals(3, onSqlite.get("citation").size());
    assertEquals(6, onSqlite.get("record").size());
    assertEquals(3, onSqlite.get("idempotency").size());
    // k2's answer is its event, kept as a reference; k1's was, and was replaced whole after expiry.
    assertEquals(
        List.of(false, true, false),
        onSqlite.get("idempotency").stream().map(row -> row.contains("event_sequence=3")).toList(),
        onSqlite.get("idempotency")::toString);
    assertEquals(4, onSqlite.get("host_wide_id").size());
    assertEquals(1, onSqlite.get("outbox").size());
  }

  /**
   * Every kind of write and every failed condition: genesis, appends with claim, citation and
   * record, a live key, a stale cursor, a host-wide id held by another WorkSession, create-only and
   * updated records, an expired key claimed again, a notification, a seal and what follows it.
   */
  private static List<Step> steps() {
    List<Step> steps = new ArrayList<>();
    Mutation genesisA = Units.genesis(A);
    ChainCursor a1 = after(genesisA);
    steps.add(new Step("genesis of A", genesisA, COMMITTED));
    steps.add(new Step("genesis of A again", Units.genesis(A), CONFLICT));
    // Answered by its event: the claim keeps a reference to the event row (V13), which the
    // expired claim of k1 below replaces with an answer stored whole.
    Mutation appendA = Units.appendAnsweredByItsEvent(A, a1, "k1");
    ChainCursor a2 = after(appendA);
    steps.add(new Step("append to A under k1", appendA, COMMITTED));
    steps.add(new Step("k1 again, live", Units.append(A, a2, "k1", 0), KEY_TAKEN));
    steps.add(new Step("a stale cursor", Units.append(A, a1, "k2", 0), CONFLICT));
    Mutation appendA2 = Units.appendAnsweredByItsEvent(A, a2, "k2");
    ChainCursor a3 = after(appendA2);
    steps.add(new Step("append to A under k2", appendA2, COMMITTED));

    Mutation genesisB = Units.genesis(B);
    ChainCursor b1 = after(genesisB);
    steps.add(new Step("genesis of B", genesisB, COMMITTED));
    steps.add(
        new Step(
            "A's host-wide review id in B",
            Mutation.records(
                List.of(
                    RecordWrite.put(
                        StoredRecord.inSession(
                            RecordKind.REVIEW, "review-k1", B, body("review-k1", "recorded"))))),
            CONFLICT));
    Mutation appendB =
        Units.append(B, b1, "k3", 0)
            .notifying(
                RequestNotification.of(
                    RequestNotification.Kind.REQUEST_CREATED,
                    B,
                    Optional.of("req-1"),
                    B + ".event.2",
                    2,
                    Units.T0));
    steps.add(new Step("append to B with a notification", appendB, COMMITTED));
    ObjectNode request = body("req-1", "pending");
    request.put("target_human_worker_id", "hw-1");
    request.put("expires_at", "2026-12-02T18:00:00Z");
    steps.add(
        new Step(
            "a Request in B",
            Mutation.records(
                List.of(
                    RecordWrite.create(
                        StoredRecord.inSession(RecordKind.REQUEST, "req-1", B, request)
                            .recordedAt(after(appendB))))),
            COMMITTED));

    steps.add(new Step("a new policy", policy(RecordWrite::create, "draft"), COMMITTED));
    steps.add(new Step("the policy created again", policy(RecordWrite::create, "x"), CONFLICT));
    steps.add(new Step("the policy updated", policy(RecordWrite::put, "active"), COMMITTED));
    ObjectNode actor = body("actor-1", "active");
    actor.put("worker_id", "worker-1");
    steps.add(
        new Step(
            "an actor, claiming k1 after it expired",
            Mutation.records(
                    List.of(
                        RecordWrite.put(StoredRecord.global(RecordKind.ACTOR, "actor-1", actor))))
                .claiming(expiredClaimOf("k1")),
            COMMITTED));

    steps.add(new Step("seal of A", Mutation.of(new ChainWrite.Seal(A, a3), List.of()), COMMITTED));
    steps.add(
        new Step("seal of A again", Mutation.of(new ChainWrite.Seal(A, a3), List.of()), CONFLICT));
    steps.add(new Step("append to sealed A", Units.append(A, a3, "k4", 0), CONFLICT));
    return steps;
  }

  private static Mutation policy(
      java.util.function.Function<StoredRecord, RecordWrite> write, String status) {
    return Mutation.records(
        List.of(
            write.apply(
                StoredRecord.global(RecordKind.POLICY, "policy-1", body("policy-1", status)))));
  }

  private static ObjectNode body(String id, String status) {
    ObjectNode body = Units.JSON.objectNode();
    body.put("id", id);
    body.put("status", status);
    return body;
  }

  /** A claim of {@code key} by a later request, when the first one's record is past its window. */
  private static IdempotencyClaim expiredClaimOf(String key) {
    StoredResponse answer =
        new StoredResponse(200, Map.of(), "{\"later\":true}".getBytes(StandardCharsets.UTF_8));
    return new IdempotencyClaim(
        Units.scope(key),
        new IdempotencyStore.Entry("sha256:later", answer, Units.T0.plusSeconds(120)),
        Units.T0.plusSeconds(60));
  }

  /** The WorkSession's cursor once {@code unit}'s chain write committed. */
  private static ChainCursor after(Mutation unit) {
    ChainWrite write = unit.chain().orElseThrow();
    if (write instanceof ChainWrite.Genesis genesis) {
      return genesis.session().cursor();
    }
    return ((ChainWrite.Append) write).updated().cursor();
  }

  /** Each unit in a transaction of its own: committed, or rolled back on its failed condition. */
  private static List<CommitResult.Outcome> run(Connection c, UnitWriter writer, List<Step> steps)
      throws SQLException {
    c.setAutoCommit(false);
    List<CommitResult.Outcome> outcomes = new ArrayList<>();
    for (Step step : steps) {
      try {
        writer.write(c, step.unit());
        c.commit();
        outcomes.add(COMMITTED);
      } catch (UnitStopped stopped) {
        c.rollback();
        outcomes.add(stopped.outcome);
      }
    }
    c.setAutoCommit(true);
    return outcomes;
  }

  /** Every table the writers write, row by row in a stable order, as text. */
  private static Map<String, List<String>> rows(Connection c, Tables t) throws SQLException {
    Map<String, List<String>> rows = new LinkedHashMap<>();
    rows.put(
        "work_session",
        rows(
            c,
            "SELECT id, revision, last_event_hash, sealed, snapshot FROM "
                + t.workSession()
                + " ORDER BY id"));
    rows.put(
        "event",
        rows(
            c,
            "SELECT work_session_id, sequence, event_id, event FROM "
                + t.event()
                + " ORDER BY work_session_id, sequence"));
    rows.put(
        "citation",
        rows(
            c,
            "SELECT work_session_id, ref, sequence FROM "
                + t.citation()
                + " ORDER BY work_session_id, ref, sequence"));
    // In write order: the order the reads give records in.
    rows.put(
        "record",
        rows(
            c,
            "SELECT kind, work_session_id, id, status, recorded_revision, recorded_event_hash,"
                + " body FROM "
                + t.record()
                + " ORDER BY write_order"));
    rows.put(
        "idempotency",
        rows(
            c,
            "SELECT actor_id, operation_id, protocol_version, idempotency_key, fingerprint,"
                + " status, headers, body AS response_body, stored_at_micros,"
                + " event_work_session_id, event_sequence FROM "
                + t.idempotency()
                + " ORDER BY actor_id, operation_id, protocol_version, idempotency_key"));
    rows.put(
        "host_wide_id",
        rows(c, "SELECT kind, id, work_session_id FROM " + t.hostWideId() + " ORDER BY kind, id"));
    rows.put(
        "outbox",
        rows(
            c,
            "SELECT id, notification, next_attempt_micros, attempts, lease_owner,"
                + " lease_until_micros, last_error, dead_at_micros FROM "
                + t.outbox()
                + " ORDER BY id"));
    return rows;
  }

  private static List<String> rows(Connection c, String sql) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Statement s = c.createStatement();
        ResultSet r = s.executeQuery(sql)) {
      ResultSetMetaData columns = r.getMetaData();
      while (r.next()) {
        List<String> row = new ArrayList<>();
        for (int i = 1; i <= columns.getColumnCount(); i++) {
          row.add(columns.getColumnLabel(i) + "=" + value(r, i, columns.getColumnLabel(i)));
        }
        rows.add(String.join(", ", row));
      }
    }
    return rows;
  }

  /**
   * A column's value as both databases can be compared on: JSON text parsed (its member order
   * kept), bytes in hex, a flag as a boolean (SQLite keeps it as an integer), numbers as numbers.
   */
  private static String value(ResultSet r, int i, String column) throws SQLException {
    if (r.getObject(i) == null) {
      return "null";
    }
    return switch (column) {
      case "snapshot", "event", "body", "headers", "notification" ->
          JsonText.read(r.getString(i)).toString();
      case "response_body" -> HexFormat.of().formatHex(r.getBytes(i));
      case "sealed" -> Boolean.toString(r.getBoolean(i));
      case "revision",
          "sequence",
          "recorded_revision",
          "stored_at_micros",
          "event_sequence",
          "next_attempt_micros",
          "attempts",
          "lease_until_micros",
          "dead_at_micros" ->
          Long.toString(r.getLong(i));
      default -> r.getString(i);
    };
  }
}
