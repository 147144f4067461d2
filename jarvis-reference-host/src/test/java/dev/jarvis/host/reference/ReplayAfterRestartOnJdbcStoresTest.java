package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.store.jdbc.JdbcHostStores;
import dev.jarvis.store.jdbc.JdbcStoreSettings;
import dev.jarvis.store.tck.testing.PostgresTestSchema;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A replay answers exactly what the first attempt answered, status, every header and every body
 * byte, on the JDBC store's two databases, from the same host and from a host restarted on the same
 * data: for createWorkSession, whose answer the store keeps whole, and for appendJarvisEvent, whose
 * answer (the event itself) the store keeps as a reference to the event row and rebuilds.
 */
class ReplayAfterRestartOnJdbcStoresTest {

  @TempDir Path dir;
  private PostgresTestSchema schema;

  @AfterEach
  void dropSchema() throws Exception {
    if (schema != null) {
      schema.close();
    }
  }

  @Test
  void onSqliteEveryReplayIsTheFirstAnswerExactlyBeforeAndAfterARestart() throws Exception {
    String url = "jdbc:sqlite:" + dir.resolve("replay.sqlite");
    replaysAreExact(
        () -> JdbcHostStores.open(JdbcStoreSettings.of(url)), url, "jarvis_idempotency_record");
  }

  @Test
  void onPostgresqlEveryReplayIsTheFirstAnswerExactlyBeforeAndAfterARestart() throws Exception {
    schema = PostgresTestSchema.create("jarvis_replay");
    replaysAreExact(
        () ->
            JdbcHostStores.open(
                JdbcStoreSettings.of(schema.url()).withSchema(schema.name()).withPoolSize(2)),
        schema.url(),
        schema.name() + ".jarvis_idempotency_record");
  }

  /** A request as sent, to send again. */
  private record Sent(String method, String path, Map<String, String> headers, String body) {
    Answer to(TestHost t) {
      return t.send(method, path, headers, body);
    }
  }

  private static void replaysAreExact(Supplier<JdbcHostStores> stores, String url, String table)
      throws SQLException {
    Sent genesis;
    Sent append;
    Answer genesisFirst;
    Answer appendFirst;
    try (TestHost t = TestHost.started(s -> s.stores(stores.get()))) {
      Map<String, String> headers = t.mutation(Payloads.HUMAN);
      headers.put("Jarvis-Expected-WorkSession-Revision", "0");
      headers.put("Jarvis-Previous-Event-Hash", "hash:protocol-genesis");
      genesis =
          new Sent("POST", "/work-sessions", headers, Payloads.workSession(Payloads.WS).toString());
      genesisFirst = genesis.to(t);
      assertEquals(201, genesisFirst.status(), genesisFirst.text());

      ChainCursor cursor = t.cursor();
      ObjectNode draft = Payloads.event("event-replayed", "note.added", Payloads.HUMAN);
      draft.put("timestamp", RequestTimestamp.format(t.clock.instant()));
      append =
          new Sent(
              "POST",
              "/work-sessions/" + Payloads.WS + "/events",
              t.scoped(Payloads.HUMAN, cursor),
              EventChain.next(cursor, draft).toString());
      appendFirst = append.to(t);
      assertEquals(201, appendFirst.status(), appendFirst.text());
      // The answer is the event: what the store may keep as a reference instead of a copy.
      assertEquals(
          t.host.host().config().stores().sessions().events(Payloads.WS).get(1),
          appendFirst.json());

      assertSame(genesisFirst, genesis.to(t));
      assertSame(appendFirst, append.to(t));
    }
    // Kept as the store keeps it: the append's answer as a reference to its event, the genesis's
    // (the WorkSession, which later appends change) whole.
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT operation_id, event_sequence, length(body) FROM "
                    + table
                    + " WHERE operation_id IN ('createWorkSession', 'appendJarvisEvent')"
                    + " ORDER BY operation_id")) {
      List<String> rows = new java.util.ArrayList<>();
      while (r.next()) {
        rows.add(r.getString(1) + " " + r.getObject(2) + " " + (r.getLong(3) > 0));
      }
      assertEquals(List.of("appendJarvisEvent 2 false", "createWorkSession null true"), rows);
    }
    try (TestHost restarted = TestHost.started(s -> s.stores(stores.get()))) {
      assertSame(genesisFirst, genesis.to(restarted));
      assertSame(appendFirst, append.to(restarted));
      assertEquals(2, restarted.cursor().revision(), "the replays appended nothing");
    }
  }

  /** The same status, headers (but the transport's Date) and body bytes. */
  private static void assertSame(Answer first, Answer replay) {
    assertEquals(first.status(), replay.status(), replay.text());
    assertEquals(headers(first), headers(replay));
    assertArrayEquals(first.bytes(), replay.bytes());
  }

  private static Map<String, List<String>> headers(Answer a) {
    Map<String, List<String>> headers = new TreeMap<>(a.raw().headers().map());
    headers.remove("date");
    return headers;
  }
}
