package dev.jarvis.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import javax.sql.DataSource;

/**
 * The retention cleanup of idempotency records: deletes, a bounded batch at a time, the records
 * stored before their window; on PostgreSQL it skips the rows a writer holds, so that several
 * instances purging at once never wait for each other nor for a unit of work.
 */
final class IdempotencyPurge {

  private final DataSource pool;
  private final Dialect dialect;
  private final StatementBounds bounds;
  private final String sql;

  IdempotencyPurge(DataSource pool, Dialect dialect, Tables tables, StatementBounds bounds) {
    this.pool = pool;
    this.dialect = dialect;
    this.bounds = bounds;
    this.sql =
        "DELETE FROM "
            + tables.idempotency()
            + " WHERE (actor_id, operation_id, protocol_version, idempotency_key) IN ("
            + " SELECT actor_id, operation_id, protocol_version, idempotency_key"
            + " FROM "
            + tables.idempotency()
            + " WHERE stored_at_micros < ?"
            + " ORDER BY stored_at_micros LIMIT ?"
            + dialect.skipLocked()
            + ")";
  }

  /** Deletes at most {@code limit} records stored before {@code notBefore}; how many it did. */
  int deleteExpired(Instant notBefore, int limit) {
    try (Connection c = pool.getConnection();
        PreparedStatement s = c.prepareStatement(sql)) {
      // On an application's DataSource the cleanup is bounded as every read is.
      bounds.bound(s);
      s.setLong(1, IdempotencyColumns.micros(notBefore));
      s.setInt(2, limit);
      return s.executeUpdate();
    } catch (SQLException e) {
      throw dialect.failure("retention cleanup failed", e);
    }
  }
}
