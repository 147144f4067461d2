package dev.jarvis.store.jdbc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.host.ChainWrite;
import dev.jarvis.host.IdempotencyClaim;
import dev.jarvis.host.IdempotencyStore.Entry;
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
import java.util.Optional;
import java.util.Set;

/**
 * SQLite: one statement per write, in the order {@code jarvis_commit} runs them on PostgreSQL.
 *
 * <ol>
 *   <li>the idempotency claim, {@code INSERT ... ON CONFLICT DO UPDATE ... WHERE stored_at <
 *       notBefore}: no row means a live record holds the key;
 *   <li>the chain write: genesis {@code INSERT ... ON CONFLICT DO NOTHING}; append and seal {@code
 *       UPDATE jarvis_work_session ... WHERE id = ? AND revision = ? AND last_event_hash = ? AND
 *       NOT sealed}, whose update count decides;
 *   <li>records: upserts, create-only ones {@code ON CONFLICT DO NOTHING} with their count; each
 *       record of a WorkSession first takes its host-wide id, {@code INSERT INTO
 *       jarvis_host_wide_id ... ON CONFLICT DO NOTHING}, and an id another WorkSession holds is a
 *       conflict;
 *   <li>the notification's outbox row.
 * </ol>
 */
final class SqliteUnitWriter implements UnitWriter {

  private final Tables tables;

  SqliteUnitWriter(Tables tables) {
    this.tables = tables;
  }

  @Override
  public boolean oneStatement() {
    return false;
  }

  @Override
  public void write(Connection c, Mutation mutation) throws SQLException, UnitStopped {
    Optional<StoredAnswer.UnitEvent> event = StoredAnswer.UnitEvent.of(mutation.chain());
    if (mutation.claim().isPresent()) {
      claim(c, mutation.claim().get(), event);
    }
    if (mutation.chain().isPresent()) {
      chain(c, mutation.chain().get(), event);
    }
    for (RecordWrite write : mutation.records()) {
      record(c, write);
    }
    if (mutation.notification().isPresent()) {
      JdbcNotificationOutbox.insert(c, tables.outbox(), mutation.notification().get());
    }
  }

  /**
   * The claim; an answer that is the unit's event is stored as a reference to the event row the
   * unit inserts next (see {@link StoredAnswer}), the same columns {@code jarvis_commit} writes.
   */
  private void claim(Connection c, IdempotencyClaim claim, Optional<StoredAnswer.UnitEvent> event)
      throws SQLException, UnitStopped {
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT INTO "
                + tables.idempotency()
                + " (actor_id, operation_id, protocol_version,"
                + " idempotency_key, fingerprint, status, headers, body, stored_at_micros,"
                + " event_work_session_id, event_sequence)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                + " ON CONFLICT (actor_id, operation_id, protocol_version, idempotency_key)"
                + " DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status,"
                + " headers = excluded.headers, body = excluded.body,"
                + " stored_at_micros = excluded.stored_at_micros,"
                + " event_work_session_id = excluded.event_work_session_id,"
                + " event_sequence = excluded.event_sequence"
                + " WHERE jarvis_idempotency_record.stored_at_micros < ?")) {
      IdempotencyColumns.bindScope(s, claim.scope());
      Entry entry = claim.entry();
      StoredAnswer.Form form = StoredAnswer.of(entry.response(), event);
      s.setString(5, entry.fingerprint());
      s.setInt(6, entry.response().status());
      s.setString(7, form.headers());
      s.setBytes(8, form.body());
      s.setLong(9, IdempotencyColumns.micros(entry.storedAt()));
      if (form.refersToEvent()) {
        s.setString(10, event.get().workSessionId());
        s.setLong(11, event.get().sequence());
      } else {
        s.setNull(10, Types.VARCHAR);
        s.setNull(11, Types.BIGINT);
      }
      s.setLong(12, IdempotencyColumns.micros(claim.notBefore()));
      if (s.executeUpdate() == 0) {
        throw UnitStopped.keyTaken();
      }
    }
  }

  private void chain(Connection c, ChainWrite write, Optional<StoredAnswer.UnitEvent> event)
      throws SQLException, UnitStopped {
    if (write instanceof ChainWrite.Genesis genesis) {
      StoredSession session = genesis.session();
      try (PreparedStatement s =
          c.prepareStatement(
              "INSERT INTO "
                  + tables.workSession()
                  + " (id, revision, last_event_hash, sealed, snapshot)"
                  + " VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING")) {
        s.setString(1, session.id());
        s.setLong(2, session.cursor().revision());
        s.setString(3, session.cursor().lastEventHash());
        s.setBoolean(4, false);
        s.setString(5, JsonText.write(session.snapshot()));
        decides(s.executeUpdate());
      }
      event(c, event.orElseThrow());
    } else if (write instanceof ChainWrite.Append append) {
      ChainCursor next = append.updated().cursor();
      try (PreparedStatement s =
          c.prepareStatement(
              "UPDATE "
                  + tables.workSession()
                  + " SET revision = ?, last_event_hash = ?, snapshot = ?"
                  + " WHERE id = ? AND revision = ? AND last_event_hash = ? AND NOT sealed")) {
        s.setLong(1, next.revision());
        s.setString(2, next.lastEventHash());
        s.setString(3, JsonText.write(append.updated().snapshot()));
        cursor(s, 4, append.workSessionId(), append.expected());
        decides(s.executeUpdate());
      }
      event(c, event.orElseThrow());
    } else {
      ChainWrite.Seal seal = (ChainWrite.Seal) write;
      try (PreparedStatement s =
          c.prepareStatement(
              "UPDATE "
                  + tables.workSession()
                  + " SET sealed = ?"
                  + " WHERE id = ? AND revision = ? AND last_event_hash = ? AND NOT sealed")) {
        s.setBoolean(1, true);
        cursor(s, 2, seal.workSessionId(), seal.expected());
        decides(s.executeUpdate());
      }
    }
  }

  private void event(Connection c, StoredAnswer.UnitEvent unitEvent) throws SQLException {
    String workSessionId = unitEvent.workSessionId();
    long sequence = unitEvent.sequence();
    JsonNode event = unitEvent.event();
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT INTO "
                + tables.event()
                + " (work_session_id, sequence, event_id, event)"
                + " VALUES (?, ?, ?, ?)")) {
      s.setString(1, workSessionId);
      s.setLong(2, sequence);
      s.setString(3, event.path("id").asText());
      s.setString(4, unitEvent.text());
      s.executeUpdate();
    }
    Set<String> refs = new LinkedHashSet<>();
    event.path("payload").path("evidence_refs").forEach(ref -> refs.add(ref.asText()));
    if (refs.isEmpty()) {
      return;
    }
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT INTO "
                + tables.citation()
                + " (work_session_id, ref, sequence) VALUES (?, ?, ?)")) {
      for (String ref : refs) {
        s.setString(1, workSessionId);
        s.setString(2, ref);
        s.setLong(3, sequence);
        s.addBatch();
      }
      s.executeBatch();
    }
  }

  private void record(Connection c, RecordWrite write) throws SQLException, UnitStopped {
    StoredRecord record = write.record();
    if (record.workSessionId().isPresent()) {
      holdHostWide(c, record.kind(), record.id(), record.workSessionId().get());
    }
    String sql =
        "INSERT INTO "
            + tables.record()
            + " (kind, work_session_id, id, status, recorded_revision,"
            + " recorded_event_hash, body) VALUES (?, ?, ?, ?, ?, ?, ?)"
            + " ON CONFLICT (kind, work_session_id, id) "
            + (write.createOnly()
                ? "DO NOTHING"
                : "DO UPDATE SET status = excluded.status,"
                    + " recorded_revision = excluded.recorded_revision,"
                    + " recorded_event_hash = excluded.recorded_event_hash, body = excluded.body");
    try (PreparedStatement s = c.prepareStatement(sql)) {
      s.setString(1, record.kind().name());
      s.setString(2, record.workSessionId().orElse(""));
      s.setString(3, record.id());
      JsonNode status = record.body().path("status");
      if (status.isTextual()) {
        s.setString(4, status.asText());
      } else {
        s.setNull(4, Types.VARCHAR);
      }
      if (record.recordedAt().isPresent()) {
        s.setLong(5, record.recordedAt().get().revision());
        s.setString(6, record.recordedAt().get().lastEventHash());
      } else {
        s.setNull(5, Types.BIGINT);
        s.setNull(6, Types.VARCHAR);
      }
      s.setString(7, JsonText.write(record.body()));
      if (write.createOnly()) {
        decides(s.executeUpdate());
      } else {
        s.executeUpdate();
      }
    }
  }

  /**
   * Takes the host-wide id of a WorkSession record for its WorkSession (migration V3), or finds it
   * held already; held by another WorkSession, it stops the unit as a conflict. Most record writes
   * are new records, one insert each; an update of a record, or a conflict, reads who holds the id.
   */
  private void holdHostWide(Connection c, RecordKind kind, String id, String workSessionId)
      throws SQLException, UnitStopped {
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT INTO "
                + tables.hostWideId()
                + " (kind, id, work_session_id) VALUES (?, ?, ?)"
                + " ON CONFLICT (kind, id) DO NOTHING")) {
      s.setString(1, kind.name());
      s.setString(2, id);
      s.setString(3, workSessionId);
      if (s.executeUpdate() == 1) {
        return;
      }
    }
    try (PreparedStatement s =
        c.prepareStatement(
            "SELECT 1 FROM "
                + tables.hostWideId()
                + " WHERE kind = ? AND id = ? AND work_session_id = ?"
                + " UNION ALL"
                // A WorkSession that recorded the id before V3 existed keeps its own record.
                + " SELECT 1 FROM "
                + tables.record()
                + " WHERE kind = ? AND id = ? AND work_session_id = ?")) {
      for (int from : new int[] {1, 4}) {
        s.setString(from, kind.name());
        s.setString(from + 1, id);
        s.setString(from + 2, workSessionId);
      }
      try (ResultSet r = s.executeQuery()) {
        if (!r.next()) {
          throw UnitStopped.conflict();
        }
      }
    }
  }

  /** An update count of 0 is a failed condition. */
  private static void decides(int updated) throws UnitStopped {
    if (updated == 0) {
      throw UnitStopped.conflict();
    }
  }

  private static void cursor(PreparedStatement s, int from, String id, ChainCursor expected)
      throws SQLException {
    s.setString(from, id);
    s.setLong(from + 1, expected.revision());
    s.setString(from + 2, expected.lastEventHash());
  }
}
