package dev.jarvis.store.jdbc;

import com.zaxxer.hikari.HikariConfig;
import java.sql.SQLException;
import java.util.Optional;

/**
 * The two databases the JDBC store runs on. They share the reads and the statements of a unit of
 * work ({@code INSERT ... ON CONFLICT}, conditional {@code UPDATE}), which PostgreSQL runs inside
 * one server-side function ({@code jarvis_commit}, migration V6) and SQLite one by one; they differ
 * in their migrations, in how a connection is set up and in which failures are worth another
 * attempt.
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
   * write lock at {@code BEGIN}, so two writers queue ({@code busy_timeout}) instead of failing on
   * upgrade. PostgreSQL: {@code statement_timeout} and {@code lock_timeout} on every connection,
   * and a socket timeout a little past them, so that a statement on a silent link ends too. Both: a
   * request waits at most the pool wait for a connection.
   */
  void configure(HikariConfig pool, StoreTimeouts timeouts) {
    pool.setConnectionTimeout(timeouts.poolWait().toMillis());
    // HikariCP checks a connection before lending it; that check must fit in the pool wait.
    pool.setValidationTimeout(
        Math.max(StoreTimeouts.LEAST_POOL_WAIT.toMillis(), timeouts.poolWait().toMillis() / 2));
    if (this == SQLITE) {
      pool.addDataSourceProperty("journal_mode", "WAL");
      pool.addDataSourceProperty("synchronous", "FULL");
      pool.addDataSourceProperty("busy_timeout", Long.toString(timeouts.busyTimeout().toMillis()));
      pool.addDataSourceProperty("foreign_keys", "true");
      pool.addDataSourceProperty("transaction_mode", "IMMEDIATE");
    } else {
      // Session settings, once per physical connection: no round trip per transaction.
      pool.setConnectionInitSql(
          "SET statement_timeout = "
              + timeouts.statementTimeout().toMillis()
              + "; SET lock_timeout = "
              + timeouts.lockTimeout().toMillis());
      long silentSeconds =
          (timeouts.statementTimeout().toMillis() + timeouts.lockTimeout().toMillis() + 999) / 1000;
      // The server cancels a statement past its limit; only a link that went silent (a cut
      // cable, a stalled proxy) still needs the driver to stop waiting, a few seconds later.
      pool.addDataSourceProperty("socketTimeout", Long.toString(silentSeconds + 5));
      // Server-prepared from the first use: the store runs the same few statements all the time,
      // and pgjdbc keeps each connection's prepared statements by their text (the default waits
      // for the fifth use, parsing and planning the statement on the server each time before).
      pool.addDataSourceProperty("prepareThreshold", "1");
    }
  }

  /**
   * The suffix that makes the retention cleanup's row selection skip rows a writer holds, where the
   * database has one (SQLite has one writer at a time and needs none).
   */
  String skipLocked() {
    return this == POSTGRESQL ? " FOR UPDATE SKIP LOCKED" : "";
  }

  /**
   * Whether a failed transaction may simply be run again at once: a deadlock or serialisation
   * failure, which the database reports without waiting. SQLite's {@code SQLITE_BUSY} is not: the
   * {@code IMMEDIATE} transaction already waited {@code busy_timeout} for the write lock, and
   * waiting that long again (four more times) would put the answer past its bound.
   */
  boolean retryable(SQLException e) {
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    return switch (this) {
      case POSTGRESQL -> state.equals("40001") || state.equals("40P01");
      case SQLITE -> (e.getErrorCode() & 0xff) == 6;
    };
  }

  /**
   * Whether a failure means the store cannot serve now, and a later retry can succeed: no
   * connection (the pool's wait ran out, the link or the server is down), a lock or statement past
   * its limit, a retryable conflict that kept recurring, no space, a read-only database. Anything
   * else (a statement the database refuses, a broken schema) is a defect.
   */
  boolean unavailable(SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof java.sql.SQLTransientException
          || t instanceof java.sql.SQLRecoverableException
          || t instanceof java.sql.SQLNonTransientConnectionException
          || t instanceof java.io.IOException) {
        return true;
      }
      if (t instanceof SQLException sql && unavailableCode(sql)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The failure a caller sees for {@code e}: a {@link dev.jarvis.host.StoreUnavailableException}
   * when the database may recover ({@link #unavailable}), else a defect.
   */
  RuntimeException failure(String what, SQLException e) {
    return unavailable(e)
        ? new dev.jarvis.host.StoreUnavailableException(what, e)
        : new JdbcStoreException(what, e);
  }

  /**
   * Whether a failed statement's answer may have been lost on the way back: the link or the server
   * went away (SQL's connection-exception class {@code 08}, an I/O failure), or the driver gave no
   * SQLState to say the database refused it. The database may have run it to its end; any other
   * failure is the database's own answer.
   */
  boolean answerLost(SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof java.sql.SQLRecoverableException
          || t instanceof java.sql.SQLNonTransientConnectionException
          || t instanceof java.io.IOException) {
        return true;
      }
    }
    return e.getSQLState() == null || e.getSQLState().startsWith("08");
  }

  /**
   * Whether a failure says the database cannot write at all now: no space, a read-only file or
   * database, an I/O error. Reads may still succeed, so readiness probes with a write while it
   * stands.
   */
  boolean cannotWrite(SQLException e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof SQLException sql) {
        String state = sql.getSQLState() == null ? "" : sql.getSQLState();
        int primary = sql.getErrorCode() & 0xff;
        boolean full =
            switch (this) {
              case POSTGRESQL ->
                  state.equals("53100") || state.equals("25006") || state.startsWith("58");
              case SQLITE -> primary == 8 || primary == 10 || primary == 13 || primary == 14;
            };
        if (full) {
          return true;
        }
      }
    }
    return false;
  }

  private boolean unavailableCode(SQLException e) {
    if (retryable(e) || (this == SQLITE && (e.getErrorCode() & 0xff) == 5)) {
      return true; // a conflict that kept recurring, or SQLite's write lock held past its wait
    }
    String state = e.getSQLState() == null ? "" : e.getSQLState();
    if (state.startsWith("08")) {
      return true; // SQL's own class for a connection exception, whatever the driver
    }
    return switch (this) {
      // 53 out of resources (disk, memory, connections), 57 cancelled (statement
      // timeout) or shut down, 58 system I/O, 55P03 lock timeout, 25006 read-only (a standby).
      case POSTGRESQL ->
          state.startsWith("53")
              || state.startsWith("57")
              || state.startsWith("58")
              || state.equals("55P03")
              || state.equals("25006");
      // NOMEM 7, READONLY 8, IOERR 10, FULL 13, CANTOPEN 14, PROTOCOL 15 (BUSY and LOCKED above).
      case SQLITE -> {
        int primary = e.getErrorCode() & 0xff;
        yield primary == 7
            || primary == 8
            || primary == 10
            || primary == 13
            || primary == 14
            || primary == 15;
      }
    };
  }
}
