package dev.jarvis.store.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Optional;

/**
 * The statement and lock bounds the store sets itself, on a {@code DataSource} of the
 * application's, whose connections carry none of the store's session settings: each unit and read
 * sets them for itself. None on the store's own pool, which sets them once per connection ({@link
 * Dialect#configure}).
 */
final class StatementBounds {

  private static final StatementBounds NONE = new StatementBounds(Optional.empty());

  private final Optional<StoreTimeouts> timeouts;

  private StatementBounds(Optional<StoreTimeouts> timeouts) {
    this.timeouts = timeouts;
  }

  /** The store's own pool: its connections are bound already. */
  static StatementBounds none() {
    return NONE;
  }

  /** An application's {@code DataSource}: every unit and read bound by {@code timeouts}. */
  static StatementBounds each(StoreTimeouts timeouts) {
    return new StatementBounds(Optional.of(timeouts));
  }

  /** Whether units and reads set their bounds themselves. */
  boolean setPerUnit() {
    return timeouts.isPresent();
  }

  /**
   * This transaction's statement and lock timeouts ({@code SET LOCAL}, gone at its end, so the
   * application's connections keep their own settings).
   */
  void bound(Connection c) throws SQLException {
    if (timeouts.isPresent()) {
      try (java.sql.Statement s = c.createStatement()) {
        s.execute(
            "SET LOCAL statement_timeout = "
                + timeouts.get().statementTimeout().toMillis()
                + "; SET LOCAL lock_timeout = "
                + timeouts.get().lockTimeout().toMillis());
      }
    }
  }

  /**
   * A read outside a transaction, bound by the driver's query timeout (whole seconds, rounded up),
   * since {@code SET LOCAL} needs a transaction.
   */
  void bound(PreparedStatement s) throws SQLException {
    if (timeouts.isPresent()) {
      long millis =
          timeouts.get().statementTimeout().toMillis() + timeouts.get().lockTimeout().toMillis();
      s.setQueryTimeout((int) Math.max(1, (millis + 999) / 1000));
    }
  }
}
