package dev.jarvis.store.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/** How a connection whose state cannot be trusted leaves its pool for good. */
final class PooledConnections {

  private PooledConnections() {}

  /** Closes {@code c}, a connection of {@code pool}, for good: it never serves again. */
  static void evict(DataSource pool, Connection c) {
    try {
      if (pool.isWrapperFor(HikariDataSource.class)) {
        // Closes the physical connection now; the pool opens a fresh one when it needs one.
        pool.unwrap(HikariDataSource.class).evictConnection(c);
        return;
      }
    } catch (SQLException | RuntimeException e) {
      // Not a HikariCP pool after all: abort below.
    }
    // Any other pool (a DataSource given to JdbcHostStores.on): abort ends the physical
    // connection, and a pool drops a connection that is closed when it comes back.
    try {
      c.abort(Runnable::run);
    } catch (SQLException | RuntimeException e) {
      // Already gone.
    }
    try {
      c.close();
    } catch (SQLException | RuntimeException e) {
      // Already gone.
    }
  }
}
