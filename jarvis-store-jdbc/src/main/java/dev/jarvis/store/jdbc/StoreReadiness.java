package dev.jarvis.store.jdbc;

import dev.jarvis.host.CommitResult;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.UnitOfWork;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;

/**
 * Whether the database can serve now (for readiness): it answers, and, after a unit failed for want
 * of space or a writable file (disk full, read-only), a probe write commits. Reads still succeed on
 * a full disk, so without the probe readiness would say UP while every write is refused; the probe
 * runs only while that fault stands, and its success (or any unit's) clears it, so readiness turns
 * UP again once space returns, without a restart.
 */
final class StoreReadiness {

  /** About a page of SQLite and PostgreSQL: a write that needs room. */
  private static final int PROBE_BYTES = 8 * 1024;

  private final DataSource pool;
  private final Tables tables;
  private final UnitOfWorkRunner units;

  StoreReadiness(DataSource pool, Tables tables, UnitOfWorkRunner units) {
    this.pool = pool;
    this.tables = tables;
    this.units = units;
  }

  boolean ready() {
    try (Connection c = pool.getConnection()) {
      if (!c.isValid(2)) {
        return false;
      }
    } catch (SQLException | RuntimeException e) {
      return false;
    }
    if (!units.cannotWrite()) {
      return true;
    }
    try {
      // A unit of its own, so that a probe on a broken connection is evicted like any unit.
      return units.commit(Mutation.records(List.of()).within(this::probeWrite)).outcome()
          == CommitResult.Outcome.COMMITTED;
    } catch (RuntimeException e) {
      return false;
    }
  }

  /** Writes a page's worth into the idempotency table and deletes it, in the probe's unit. */
  private void probeWrite(UnitOfWork unit) throws SQLException {
    Connection c = unit.resource(Connection.class).orElseThrow();
    try (PreparedStatement s =
        c.prepareStatement(
            "INSERT INTO "
                + tables.idempotency()
                + " (actor_id, operation_id, protocol_version,"
                + " idempotency_key, fingerprint, status, headers, body, stored_at_micros)"
                + " VALUES ('', 'readiness-probe', '', '', '', 0, '{}', ?, 0)"
                + " ON CONFLICT (actor_id, operation_id, protocol_version, idempotency_key)"
                + " DO NOTHING")) {
      s.setBytes(1, new byte[PROBE_BYTES]);
      s.executeUpdate();
    }
    try (PreparedStatement s =
        c.prepareStatement(
            "DELETE FROM "
                + tables.idempotency()
                + " WHERE actor_id = '' AND operation_id ="
                + " 'readiness-probe'")) {
      s.executeUpdate();
    }
  }
}
