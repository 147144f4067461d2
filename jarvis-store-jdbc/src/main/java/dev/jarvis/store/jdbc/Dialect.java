package dev.jarvis.store.jdbc;

import com.zaxxer.hikari.HikariConfig;
import java.sql.SQLException;
import java.util.Optional;

/**
 * The two databases the JDBC store runs on. They share every statement ({@code INSERT ... ON
 * CONFLICT}, conditional {@code UPDATE}); they differ in their migrations' column types, in how a
 * connection is set up and in which failures are worth another attempt.
 */
public enum Dialect {
  /** PostgreSQL: several host instances share one database. */
  POSTGRESQL("jdbc:postgresql:", "postgresql"),
  /** SQLite: the embedded default, one host instance, one file. */
  SQLITE("jdbc:sqlite:", "sqlite");

  private final String urlPrefix;
  private final String migrations;

  Dialect(String urlPrefix, String migrations) {
    this.urlPrefix = urlPrefix;
    this.migrations = migrations;
  }

  /** The dialect of a JDBC URL, if it is one of these. */
  public static Optional<Dialect> of(String jdbcUrl) {
    for (Dialect dialect : values()) {
      if (jdbcUrl.startsWith(dialect.urlPrefix)) {
        return Optional.of(dialect);
      }
    }
    return Optional.empty();
  }

  /** Flyway location of this dialect's migrations. */
  String migrations() {
    return "classpath:dev/jarvis/store/jdbc/migration/" + migrations;
  }

  /**
   * Connection settings. SQLite: write-ahead log with {@code synchronous=FULL}, so a committed
   * transaction survives a killed process and a power cut; {@code IMMEDIATE} transactions take the
   * write lock at {@code BEGIN}, so two writers queue (busy timeout) instead of failing on upgrade.
   */
  void configure(HikariConfig pool) {
    if (this == SQLITE) {
      pool.addDataSourceProperty("journal_mode", "WAL");
      pool.addDataSourceProperty("synchronous", "FULL");
      pool.addDataSourceProperty("busy_timeout", "30000");
      pool.addDataSourceProperty("foreign_keys", "true");
      pool.addDataSourceProperty("transaction_mode", "IMMEDIATE");
    }
  }

  /**
   * The suffix that makes the retention cleanup's row selection skip rows a writer holds, where the
   * database has one (SQLite has one writer at a time and needs none).
   */
  String skipLocked() {
    return this == POSTGRESQL ? " FOR UPDATE SKIP LOCKED" : "";
  }

  /** Whether a failed transaction may simply be run again (deadlock, serialisation, busy). */
  boolean retryable(SQLException e) {
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    return switch (this) {
      case POSTGRESQL -> state.equals("40001") || state.equals("40P01");
      case SQLITE -> (e.getErrorCode() & 0xff) == 5 || (e.getErrorCode() & 0xff) == 6;
    };
  }
}
