package dev.jarvis.store.jdbc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.host.ChainWrite;
import dev.jarvis.host.IdempotencyClaim;
import dev.jarvis.host.IdempotencyStore;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.RecordWrite;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.StoredSession;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A PostgreSQL unit of work as one statement: the call of the server-side function {@code
 * jarvis_commit} (migration V6), which claims the idempotency key, makes the chain write, stores
 * the event with its citations and the records, each under its condition. One round trip instead of
 * one per statement; the function checks in {@link dev.jarvis.host.HostStores#commit}'s order, so
 * every outcome is the one the statements gave one by one.
 */
final class CommitCall {

  /** The SQLSTATE the function raises when a condition after the claim fails. */
  static final String CONFLICT_STATE = "JV409";

  /** What the call decided; a failed condition after the claim is {@link #CONFLICT_STATE}. */
  sealed interface Outcome {}

  /** Everything was written (still to be committed by the caller). */
  record Committed() implements Outcome {}

  /** A live record holds the key: nothing was written. Empty if it expired before it was read. */
  record KeyTaken(Optional<IdempotencyStore.Entry> first) implements Outcome {}

  private static final int PARAMETERS = 32;

  private static final String OUTCOME =
      "o_outcome, o_fingerprint, o_status, o_headers, o_body, o_stored_at, o_event_sequence,"
          + " o_event";

  private final String sql;
  private final String notifyingSql;

  /**
   * @param function the function's name as the store's statements qualify its tables
   * @param outbox the notification outbox table (migration V12), likewise qualified
   */
  CommitCall(String function, String outbox) {
    String call =
        function + "(" + String.join(", ", java.util.Collections.nCopies(PARAMETERS, "?")) + ")";
    this.sql = "SELECT " + OUTCOME + " FROM " + call;
    // A unit with a notification: the same call, and the outbox row inserted by the same statement
    // only when the call committed its writes (a taken key writes nothing, a failed condition
    // raises and undoes the whole statement). PostgreSQL evaluates the volatile call once and runs
    // the data-modifying CTE to completion: one round trip, as without a notification.
    this.notifyingSql =
        "WITH c AS (SELECT "
            + OUTCOME
            + " FROM "
            + call
            + "), o AS (INSERT INTO "
            + outbox
            + JdbcNotificationOutbox.INSERT_COLUMNS
            + " SELECT ?, ?, ? FROM c WHERE c.o_outcome = 'COMMITTED')"
            + " SELECT "
            + OUTCOME
            + " FROM c";
  }

  Outcome run(Connection c, Mutation mutation) throws SQLException {
    boolean notifying = mutation.notification().isPresent();
    try (PreparedStatement s = c.prepareStatement(notifying ? notifyingSql : sql)) {
      Optional<StoredAnswer.UnitEvent> event = StoredAnswer.UnitEvent.of(mutation.chain());
      claim(s, mutation.claim(), event);
      chain(c, s, mutation.chain(), event);
      records(c, s, mutation.records());
      if (notifying) {
        s.setString(PARAMETERS + 1, mutation.notification().get().id());
        s.setString(PARAMETERS + 2, JdbcNotificationOutbox.text(mutation.notification().get()));
        s.setLong(
            PARAMETERS + 3,
            JdbcNotificationOutbox.micros(mutation.notification().get().occurredAt()));
      }
      try (ResultSet r = s.executeQuery()) {
        r.next();
        return switch (r.getString(1)) {
          case "COMMITTED" -> new Committed();
          case "KEY_TAKEN" -> new KeyTaken(Optional.of(StoredAnswer.entry(r, 2)));
          case "KEY_GONE" -> new KeyTaken(Optional.empty());
          default -> throw new JdbcStoreException("jarvis_commit answered " + r.getString(1), null);
        };
      }
    }
  }

  /**
   * Parameters 1–10. An answer that is the unit's event goes as a NULL body (parameter 8): the
   * function then stores the reference to the event it inserts (see {@link StoredAnswer}).
   */
  private static void claim(
      PreparedStatement s, Optional<IdempotencyClaim> claim, Optional<StoredAnswer.UnitEvent> event)
      throws SQLException {
    if (claim.isEmpty()) {
      int[] types = {
        Types.VARCHAR, Types.VARCHAR, Types.VARCHAR, Types.VARCHAR, Types.VARCHAR,
        Types.INTEGER, Types.VARCHAR, Types.BINARY, Types.BIGINT, Types.BIGINT
      };
      for (int i = 0; i < types.length; i++) {
        s.setNull(i + 1, types[i]);
      }
      return;
    }
    IdempotencyStore.Scope scope = claim.get().scope();
    IdempotencyStore.Entry entry = claim.get().entry();
    s.setString(1, scope.actorId());
    s.setString(2, scope.operationId());
    s.setString(3, scope.protocolVersion());
    s.setString(4, scope.key());
    s.setString(5, entry.fingerprint());
    StoredAnswer.Form form = StoredAnswer.of(entry.response(), event);
    s.setInt(6, entry.response().status());
    s.setString(7, form.headers());
    if (form.refersToEvent()) {
      s.setNull(8, Types.BINARY);
    } else {
      s.setBytes(8, form.body());
    }
    s.setLong(9, IdempotencyColumns.micros(entry.storedAt()));
    s.setLong(10, IdempotencyColumns.micros(claim.get().notBefore()));
  }

  /** Parameters 11–23: the chain write (11–19) and its event (20–23). */
  private static void chain(
      Connection c,
      PreparedStatement s,
      Optional<ChainWrite> chain,
      Optional<StoredAnswer.UnitEvent> unitEvent)
      throws SQLException {
    String kind = null;
    String id = null;
    Optional<ChainCursor> expected = Optional.empty();
    Optional<StoredSession> written = Optional.empty();
    Optional<JsonNode> event = Optional.empty();
    if (chain.isPresent()) {
      ChainWrite write = chain.get();
      id = write.workSessionId();
      if (write instanceof ChainWrite.Genesis genesis) {
        kind = "GENESIS";
        written = Optional.of(genesis.session());
        event = Optional.of(genesis.firstEvent());
      } else if (write instanceof ChainWrite.Append append) {
        kind = "APPEND";
        expected = Optional.of(append.expected());
        written = Optional.of(append.updated());
        event = Optional.of(append.event());
      } else {
        kind = "SEAL";
        expected = Optional.of(((ChainWrite.Seal) write).expected());
      }
    }
    s.setString(11, kind);
    s.setString(12, id);
    if (expected.isPresent()) {
      s.setLong(13, expected.get().revision());
      s.setString(14, expected.get().lastEventHash());
    } else {
      s.setNull(13, Types.BIGINT);
      s.setNull(14, Types.VARCHAR);
    }
    if (written.isPresent()) {
      StoredSession session = written.get();
      s.setLong(15, session.cursor().revision());
      s.setString(16, session.cursor().lastEventHash());
      s.setString(17, JsonText.write(session.snapshot()));
      s.setString(18, session.snapshot().path("created_by_actor_id").asText());
      s.setString(19, session.status());
    } else {
      s.setNull(15, Types.BIGINT);
      for (int i = 16; i <= 19; i++) {
        s.setNull(i, Types.VARCHAR);
      }
    }
    if (event.isPresent()) {
      JsonNode e = event.get();
      Set<String> refs = new LinkedHashSet<>();
      e.path("payload").path("evidence_refs").forEach(ref -> refs.add(ref.asText()));
      s.setLong(20, e.path("sequence").asLong());
      s.setString(21, e.path("id").asText());
      s.setString(22, unitEvent.orElseThrow().text());
      array(c, s, 23, "text", refs.toArray(String[]::new));
    } else {
      s.setNull(20, Types.BIGINT);
      s.setNull(21, Types.VARCHAR);
      s.setNull(22, Types.VARCHAR);
      array(c, s, 23, "text", new String[0]);
    }
  }

  /** Parameters 24–32: one array per column, one element per record. */
  private static void records(Connection c, PreparedStatement s, List<RecordWrite> writes)
      throws SQLException {
    int n = writes.size();
    String[] kinds = new String[n];
    String[] workSessions = new String[n];
    String[] ids = new String[n];
    String[] statuses = new String[n];
    Long[] revisions = new Long[n];
    String[] hashes = new String[n];
    String[] bodies = new String[n];
    Boolean[] createOnly = new Boolean[n];
    String[] targets = new String[n];
    for (int i = 0; i < n; i++) {
      RecordWrite write = writes.get(i);
      StoredRecord record = write.record();
      kinds[i] = record.kind().name();
      workSessions[i] = record.workSessionId().orElse("");
      ids[i] = record.id();
      JsonNode status = record.body().path("status");
      statuses[i] = status.isTextual() ? status.asText() : null;
      revisions[i] = record.recordedAt().map(ChainCursor::revision).orElse(null);
      hashes[i] = record.recordedAt().map(ChainCursor::lastEventHash).orElse(null);
      bodies[i] = JsonText.write(record.body());
      createOnly[i] = write.createOnly();
      JsonNode target = record.body().path("target_human_worker_id");
      targets[i] =
          record.kind() == RecordKind.REQUEST && target.isTextual() ? target.asText() : null;
    }
    array(c, s, 24, "text", kinds);
    array(c, s, 25, "text", workSessions);
    array(c, s, 26, "text", ids);
    array(c, s, 27, "text", statuses);
    array(c, s, 28, "int8", revisions);
    array(c, s, 29, "text", hashes);
    array(c, s, 30, "text", bodies);
    array(c, s, 31, "bool", createOnly);
    array(c, s, 32, "text", targets);
  }

  /**
   * An array parameter; none when empty, which the function reads as empty (no citations, no
   * records: most units), so that neither side builds or parses an array literal for nothing.
   * Typed, so that the server-prepared call keeps its parameter types whatever the unit holds.
   */
  private static void array(
      Connection c, PreparedStatement s, int at, String elementType, Object[] values)
      throws SQLException {
    if (values.length == 0) {
      s.setNull(at, Types.ARRAY, "_" + elementType);
    } else {
      s.setArray(at, c.createArrayOf(elementType, values));
    }
  }
}
