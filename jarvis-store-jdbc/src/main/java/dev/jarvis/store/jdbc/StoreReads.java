package dev.jarvis.store.jdbc;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.host.ActorWithWorker;
import dev.jarvis.host.IdempotencyStore.Entry;
import dev.jarvis.host.IdempotencyStore.Scope;
import dev.jarvis.host.InboxEntry;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.SessionWithRecords;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.StoredSession;
import dev.jarvis.model.Actor;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The store's reads: each one query on a connection of the pool, outside any transaction (the host
 * decides on them, and the conditional chain write makes a decision on a stale read a conflict). On
 * an application's {@code DataSource} every query carries the driver's query timeout ({@link
 * StatementBounds}), the idempotency lookup's too: a lookup behind a lock held elsewhere is a 503
 * in bounded time, not a request that hangs. The queries are written as the indexes the migrations
 * create have their expressions, so that the planner uses them.
 */
final class StoreReads {

  private final DataSource pool;
  private final Dialect dialect;
  private final Tables tables;
  private final StatementBounds bounds;

  StoreReads(DataSource pool, Dialect dialect, Tables tables, StatementBounds bounds) {
    this.pool = pool;
    this.dialect = dialect;
    this.tables = tables;
    this.bounds = bounds;
  }

  /** One query, its rows mapped. */
  private <T> List<T> query(String sql, Binder binder, Row<T> row) {
    try (Connection c = pool.getConnection();
        PreparedStatement s = c.prepareStatement(sql)) {
      bounds.bound(s);
      binder.bind(s);
      List<T> out = new ArrayList<>();
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          out.add(row.map(r));
        }
      }
      return out;
    } catch (SQLException e) {
      throw dialect.failure("query failed", e);
    }
  }

  private <T> Optional<T> one(String sql, Binder binder, Row<T> row) {
    return query(sql, binder, row).stream().findFirst();
  }

  @FunctionalInterface
  private interface Binder {
    void bind(PreparedStatement s) throws SQLException;
  }

  @FunctionalInterface
  private interface Row<T> {
    T map(ResultSet r) throws SQLException;
  }

  public Optional<StoredSession> find(String workSessionId) {
    return one(
        "SELECT snapshot, sealed FROM " + tables.workSession() + " WHERE id = ?",
        s -> s.setString(1, workSessionId),
        r -> new StoredSession(JsonText.object(r.getString(1)), r.getBoolean(2)));
  }

  public Optional<SessionWithRecords> findWithRecords(
      String workSessionId, RecordKind kind, Set<String> statuses) {
    return findWithRecords(workSessionId, kind, statuses, Set.of());
  }

  /**
   * One query: the WorkSession's row joined to its records of that kind and those statuses (index
   * {@code protocol_record_by_status}), one row per record, or one row without a record; each row
   * also says, per event id asked about, whether the chain holds it (index {@code
   * jarvis_event_by_id}).
   */
  public Optional<SessionWithRecords> findWithRecords(
      String workSessionId, RecordKind kind, Set<String> statuses, Set<String> eventIds) {
    List<String> wanted = List.copyOf(statuses);
    List<String> asked = List.copyOf(eventIds);
    StringBuilder sql = new StringBuilder("SELECT w.snapshot, w.sealed");
    for (int i = 0; i < asked.size(); i++) {
      sql.append(", EXISTS (SELECT 1 FROM ")
          .append(tables.event())
          .append(" e WHERE e.work_session_id = w.id AND e.event_id = ?)");
    }
    sql.append(
            ", r.kind, r.work_session_id, r.id, r.recorded_revision, r.recorded_event_hash, r.body")
        .append(" FROM ")
        .append(tables.workSession())
        .append(" w LEFT JOIN ")
        .append(tables.record())
        .append(" r ON ")
        .append(
            wanted.isEmpty()
                ? "1 = 0"
                : "r.work_session_id = w.id AND r.kind = ? AND r.status IN ("
                    + marks(wanted.size())
                    + ")")
        .append(" WHERE w.id = ? ORDER BY r.write_order");
    int recordFrom = 3 + asked.size();
    List<SessionRow> rows =
        query(
            sql.toString(),
            s -> {
              int at = 1;
              for (String eventId : asked) {
                s.setString(at++, eventId);
              }
              if (!wanted.isEmpty()) {
                s.setString(at++, kind.name());
                for (String status : wanted) {
                  s.setString(at++, status);
                }
              }
              s.setString(at, workSessionId);
            },
            r -> {
              Set<String> held = new HashSet<>();
              for (int i = 0; i < asked.size(); i++) {
                if (r.getBoolean(3 + i)) {
                  held.add(asked.get(i));
                }
              }
              return new SessionRow(
                  r.getString(1),
                  r.getBoolean(2),
                  held,
                  r.getString(recordFrom) == null
                      ? Optional.empty()
                      : Optional.of(record(r, recordFrom)));
            });
    if (rows.isEmpty()) {
      return Optional.empty();
    }
    // The WorkSession's columns repeat on every row; they are read once.
    SessionRow first = rows.get(0);
    StoredSession session = new StoredSession(JsonText.object(first.snapshot()), first.sealed());
    List<StoredRecord> records = new ArrayList<>();
    rows.forEach(row -> row.record().ifPresent(records::add));
    return Optional.of(new SessionWithRecords(session, records, first.heldEventIds()));
  }

  /**
   * A row of {@link #findWithRecords}: the WorkSession's columns, the event ids asked about that
   * its chain holds, and a record if one joined.
   */
  private record SessionRow(
      String snapshot, boolean sealed, Set<String> heldEventIds, Optional<StoredRecord> record) {}

  public List<JsonNode> events(String workSessionId) {
    return query(
        "SELECT event FROM " + tables.event() + " WHERE work_session_id = ? ORDER BY sequence",
        s -> s.setString(1, workSessionId),
        r -> JsonText.read(r.getString(1)));
  }

  public List<JsonNode> events(String workSessionId, long afterSequence, int limit) {
    // A range on the primary key (work_session_id, sequence): one page costs the same at any depth.
    return query(
        "SELECT event FROM "
            + tables.event()
            + " WHERE work_session_id = ? AND sequence > ? ORDER BY sequence LIMIT ?",
        s -> {
          s.setString(1, workSessionId);
          s.setLong(2, afterSequence);
          s.setInt(3, limit);
        },
        r -> JsonText.read(r.getString(1)));
  }

  public Optional<JsonNode> event(String workSessionId, String eventId) {
    return one(
        "SELECT event FROM "
            + tables.event()
            + " WHERE work_session_id = ? AND event_id = ?"
            + " ORDER BY sequence LIMIT 1",
        s -> {
          s.setString(1, workSessionId);
          s.setString(2, eventId);
        },
        r -> JsonText.read(r.getString(1)));
  }

  public long countCiting(String workSessionId, String ref) {
    return one(
            "SELECT count(*) FROM " + tables.citation() + " WHERE work_session_id = ? AND ref = ?",
            s -> {
              s.setString(1, workSessionId);
              s.setString(2, ref);
            },
            r -> r.getLong(1))
        .orElse(0L);
  }

  public long countCreatedBy(String actorId, Set<String> statuses) {
    if (statuses.isEmpty()) {
      return 0;
    }
    List<String> wanted = List.copyOf(statuses);
    // Index work_session_by_creator (migration V4): its expressions, written as it has them.
    return one(
            "SELECT count(*) FROM "
                + tables.workSession()
                + " WHERE "
                + json("snapshot", "created_by_actor_id")
                + " = ? AND "
                + json("snapshot", "status")
                + " IN ("
                + marks(wanted.size())
                + ")",
            texts(List.of(actorId), wanted),
            r -> r.getLong(1))
        .orElse(0L);
  }

  public List<StoredRecord> requestsTargeting(String humanWorkerId, Set<String> statuses) {
    if (statuses.isEmpty()) {
      return List.of();
    }
    List<String> wanted = List.copyOf(statuses);
    // Partial index jarvis_protocol_record_inbox (migration V11; V4 and V6 before): the kind is a
    // literal so
    // that the planner sees the query is within the index's WHERE.
    return query(
        recordColumns()
            + " WHERE kind = 'REQUEST' AND work_session_id <> '' AND "
            + json("body", "target_human_worker_id")
            + " = ? AND status IN ("
            + marks(wanted.size())
            + ") ORDER BY write_order",
        texts(List.of(humanWorkerId), wanted),
        StoreReads::record);
  }

  public List<InboxEntry> inbox(String humanWorkerId, Set<String> statuses, long after, int limit) {
    if (statuses.isEmpty() || limit < 1) {
      return List.of();
    }
    List<String> wanted = List.copyOf(statuses);
    // Partial index jarvis_protocol_record_inbox (migration V11; on SQLite the V4 index on target
    // and status, whose entries end in the rowid, write_order): a range per wanted status, merged
    // by write order. The kind is a literal so that the planner sees the query is within the
    // index's WHERE.
    return query(
        "SELECT write_order, kind, work_session_id, id, recorded_revision, recorded_event_hash,"
            + " body FROM "
            + tables.record()
            + " WHERE kind = 'REQUEST' AND work_session_id <> '' AND "
            + json("body", "target_human_worker_id")
            + " = ? AND status IN ("
            + marks(wanted.size())
            + ") AND write_order > ? ORDER BY write_order LIMIT ?",
        s -> {
          int at = 1;
          s.setString(at++, humanWorkerId);
          for (String status : wanted) {
            s.setString(at++, status);
          }
          s.setLong(at++, after);
          s.setInt(at, limit);
        },
        r -> new InboxEntry(r.getLong(1), record(r, 2)));
  }

  public List<StoredRecord> requestsDue(Instant notAfter, Set<String> sessionStatuses, int limit) {
    if (sessionStatuses.isEmpty() || limit < 1) {
      return List.of();
    }
    List<String> statuses = List.copyOf(sessionStatuses);
    // Partial index jarvis_protocol_record_open_request_expiry (migration V9): the kind and the
    // open statuses are literals, so that the planner sees the query is within the index's WHERE;
    // the expiry is the index's own expression.
    String expiry =
        dialect == Dialect.POSTGRESQL
            ? tables.requestExpiryFunction() + "(r.body)"
            : "julianday(upper(json_extract(r.body, '$.expires_at')))";
    String sessionStatus =
        dialect == Dialect.POSTGRESQL ? "w.status" : "json_extract(w.snapshot, '$.status')";
    return query(
        "SELECT r.kind, r.work_session_id, r.id, r.recorded_revision, r.recorded_event_hash,"
            + " r.body FROM "
            + tables.record()
            + " r JOIN "
            + tables.workSession()
            + " w ON w.id = r.work_session_id"
            + " WHERE r.kind = 'REQUEST' AND r.status IN ('pending', 'acknowledged') AND "
            + expiry
            + " <= ? AND NOT w.sealed AND "
            + sessionStatus
            + " IN ("
            + marks(statuses.size())
            + ") ORDER BY "
            + expiry
            + ", r.work_session_id, r.id LIMIT ?",
        s -> {
          int at = 1;
          if (dialect == Dialect.POSTGRESQL) {
            s.setObject(
                at++, java.time.OffsetDateTime.ofInstant(notAfter, java.time.ZoneOffset.UTC));
          } else {
            // A Julian day number as julianday() gives it; a millisecond more, since the double
            // may round either way: the host checks each Request's expiry exactly before writing.
            s.setDouble(at++, (notAfter.toEpochMilli() + 1) / 86_400_000.0 + 2_440_587.5);
          }
          for (String status : statuses) {
            s.setString(at++, status);
          }
          s.setInt(at, limit);
        },
        StoreReads::record);
  }

  /**
   * A top-level text member of a JSON text column, as the indexes have it: on PostgreSQL a column
   * of its own that the store writes beside the text (migration V6), on SQLite the V4 expression.
   */
  private String json(String column, String member) {
    return dialect == Dialect.POSTGRESQL
        ? member
        : "json_extract(" + column + ", '$." + member + "')";
  }

  private static String marks(int count) {
    return String.join(", ", java.util.Collections.nCopies(count, "?"));
  }

  /**
   * Binds {@code keys}, then {@code statuses}, as the parameters of a query ending in {@code status
   * IN (}{@link #marks}{@code )}.
   */
  private static Binder texts(List<String> keys, List<String> statuses) {
    return s -> {
      int at = 1;
      for (String key : keys) {
        s.setString(at++, key);
      }
      for (String status : statuses) {
        s.setString(at++, status);
      }
    };
  }

  /** The columns {@link #record(ResultSet)} reads, from the records table. */
  private String recordColumns() {
    return "SELECT kind, work_session_id, id, recorded_revision, recorded_event_hash, body FROM "
        + tables.record();
  }

  private static StoredRecord record(ResultSet r) throws SQLException {
    return record(r, 1);
  }

  /** The record whose {@link #recordColumns} start at column {@code from}. */
  private static StoredRecord record(ResultSet r, int from) throws SQLException {
    String workSessionId = r.getString(from + 1);
    long revision = r.getLong(from + 3);
    Optional<ChainCursor> recordedAt =
        r.wasNull()
            ? Optional.empty()
            : Optional.of(new ChainCursor(revision, r.getString(from + 4)));
    return new StoredRecord(
        RecordKind.valueOf(r.getString(from)),
        r.getString(from + 2),
        workSessionId.isEmpty() ? Optional.empty() : Optional.of(workSessionId),
        JsonText.read(r.getString(from + 5)),
        recordedAt);
  }

  public Optional<StoredRecord> find(RecordKind kind, String id) {
    return find(kind, "", id);
  }

  public Optional<StoredRecord> find(RecordKind kind, String workSessionId, String id) {
    return one(
        recordColumns() + " WHERE kind = ? AND work_session_id = ? AND id = ?",
        s -> {
          s.setString(1, kind.name());
          s.setString(2, workSessionId);
          s.setString(3, id);
        },
        StoreReads::record);
  }

  /**
   * One query: the Actor's row joined to the Worker's row that its body's {@code worker_id} names
   * (both on the records table's key).
   */
  public Optional<ActorWithWorker> actorWithWorker(String actorId) {
    String workerId =
        dialect == Dialect.POSTGRESQL
            ? "(a.body::json ->> '" + Actor.JSON_PROPERTY_WORKER_ID + "')"
            : "json_extract(a.body, '$." + Actor.JSON_PROPERTY_WORKER_ID + "')";
    return one(
        "SELECT a.kind, a.work_session_id, a.id, a.recorded_revision, a.recorded_event_hash,"
            + " a.body, w.kind, w.work_session_id, w.id, w.recorded_revision,"
            + " w.recorded_event_hash, w.body FROM "
            + tables.record()
            + " a LEFT JOIN "
            + tables.record()
            + " w ON w.kind = ? AND w.work_session_id = '' AND w.id = "
            + workerId
            + " WHERE a.kind = ? AND a.work_session_id = '' AND a.id = ?",
        s -> {
          s.setString(1, RecordKind.WORKER.name());
          s.setString(2, RecordKind.ACTOR.name());
          s.setString(3, actorId);
        },
        r ->
            new ActorWithWorker(
                record(r, 1),
                r.getString(7) == null ? Optional.empty() : Optional.of(record(r, 7))));
  }

  public List<StoredRecord> actorsOf(String workerId) {
    // Partial index jarvis_protocol_record_actor_by_worker (migration V8): its expression and its
    // WHERE written as it has them, so that the planner uses it.
    String worker =
        dialect == Dialect.POSTGRESQL
            ? "((body::jsonb) ->> '" + Actor.JSON_PROPERTY_WORKER_ID + "')"
            : "json_extract(body, '$." + Actor.JSON_PROPERTY_WORKER_ID + "')";
    return query(
        recordColumns()
            + " WHERE kind = 'ACTOR' AND work_session_id = '' AND "
            + worker
            + " = ? ORDER BY write_order",
        s -> s.setString(1, workerId),
        StoreReads::record);
  }

  public Optional<StoredRecord> findInAnyWorkSession(RecordKind kind, String id) {
    // Index protocol_record_by_kind_id (migration V2).
    return one(
        recordColumns()
            + " WHERE kind = ? AND id = ? AND work_session_id <> '' ORDER BY write_order LIMIT 1",
        s -> {
          s.setString(1, kind.name());
          s.setString(2, id);
        },
        StoreReads::record);
  }

  public List<StoredRecord> inSession(RecordKind kind, String workSessionId) {
    return query(
        recordColumns() + " WHERE work_session_id = ? AND kind = ? ORDER BY write_order",
        s -> {
          s.setString(1, workSessionId);
          s.setString(2, kind.name());
        },
        StoreReads::record);
  }

  public List<StoredRecord> inSession(RecordKind kind, String workSessionId, Set<String> statuses) {
    if (statuses.isEmpty()) {
      return List.of();
    }
    List<String> wanted = List.copyOf(statuses);
    return query(
        recordColumns()
            + " WHERE work_session_id = ? AND kind = ? AND status IN ("
            + marks(wanted.size())
            + ") ORDER BY write_order",
        texts(List.of(workSessionId, kind.name()), wanted),
        StoreReads::record);
  }

  public Optional<Entry> find(Scope scope, Instant notBefore) {
    try (Connection c = pool.getConnection()) {
      return entry(c, scope, notBefore);
    } catch (SQLException e) {
      throw dialect.failure("query failed", e);
    }
  }

  /**
   * The key's live record, read on {@code c}: a unit whose claim found the key taken reads it on
   * its own connection, since borrowing a second one while holding it could starve the pool.
   */
  Optional<Entry> entry(Connection c, Scope scope, Instant notBefore) throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement(
            // An answer stored as a reference to its unit's event (V13) is read with that event.
            "SELECT i.fingerprint, i.status, i.headers, i.body, i.stored_at_micros,"
                + " i.event_sequence, e.event FROM "
                + tables.idempotency()
                + " i LEFT JOIN "
                + tables.event()
                + " e ON e.work_session_id = i.event_work_session_id"
                + " AND e.sequence = i.event_sequence"
                + " WHERE i.actor_id = ? AND i.operation_id = ? AND i.protocol_version = ?"
                + " AND i.idempotency_key = ? AND i.stored_at_micros >= ?")) {
      bounds.bound(s);
      IdempotencyColumns.bindScope(s, scope);
      s.setLong(5, IdempotencyColumns.micros(notBefore));
      try (ResultSet r = s.executeQuery()) {
        if (!r.next()) {
          return Optional.empty();
        }
        return Optional.of(StoredAnswer.entry(r, 1));
      }
    }
  }
}
