package dev.jarvis.store.jdbc;

import java.time.Duration;
import java.util.Objects;

/**
 * How long the JDBC store waits before it gives up, so that a store fault is answered {@code 503}
 * in bounded time instead of holding a request (and a pooled connection) for as long as the
 * database stalls.
 */
public final class StoreTimeouts {
  private final Duration poolWait;
  private final Duration statementTimeout;
  private final Duration lockTimeout;
  private final Duration busyTimeout;

  private StoreTimeouts(
      Duration poolWait, Duration statementTimeout, Duration lockTimeout, Duration busyTimeout) {
    Objects.requireNonNull(poolWait, "poolWait");
    Objects.requireNonNull(statementTimeout, "statementTimeout");
    Objects.requireNonNull(lockTimeout, "lockTimeout");
    Objects.requireNonNull(busyTimeout, "busyTimeout");
    if (poolWait.compareTo(LEAST_POOL_WAIT) < 0) {
      throw new IllegalArgumentException("poolWait must be at least 250 ms");
    }
    // Zero would mean "no limit" to both databases: the unbounded wait these bounds exist to end.
    for (Duration d : new Duration[] {statementTimeout, lockTimeout, busyTimeout}) {
      if (d.isNegative() || d.isZero() || d.toMillis() < 1) {
        throw new IllegalArgumentException("store timeouts must be at least 1 ms: " + d);
      }
    }
    this.poolWait = poolWait;
    this.statementTimeout = statementTimeout;
    this.lockTimeout = lockTimeout;
    this.busyTimeout = busyTimeout;
  }

  /**
   * The longest a request waits for a pooled connection (HikariCP's {@code connectionTimeout}; at
   * least 250 ms).
   */
  public Duration poolWait() {
    return poolWait;
  }

  /**
   * PostgreSQL: the longest one statement may run ({@code statement_timeout}) and, with {@link
   * #lockTimeout} added, how long the driver waits on a silent socket.
   */
  public Duration statementTimeout() {
    return statementTimeout;
  }

  /**
   * PostgreSQL: the longest a statement waits for a row or table lock ({@code lock_timeout}), such
   * as a WorkSession row another transaction holds.
   */
  public Duration lockTimeout() {
    return lockTimeout;
  }

  /**
   * SQLite: the longest a writer waits for the database's one write lock ({@code busy_timeout}).
   */
  public Duration busyTimeout() {
    return busyTimeout;
  }

  /** A request waits at most this long for a connection unless told otherwise. */
  public static final Duration DEFAULT_POOL_WAIT = Duration.ofSeconds(2);

  /** PostgreSQL statements run at most this long unless told otherwise. */
  public static final Duration DEFAULT_STATEMENT_TIMEOUT = Duration.ofSeconds(5);

  /** PostgreSQL statements wait at most this long for a lock unless told otherwise. */
  public static final Duration DEFAULT_LOCK_TIMEOUT = Duration.ofSeconds(2);

  /** SQLite writers wait at most this long for the write lock unless told otherwise. */
  public static final Duration DEFAULT_BUSY_TIMEOUT = Duration.ofSeconds(5);

  /** HikariCP refuses a shorter connection timeout. */
  static final Duration LEAST_POOL_WAIT = Duration.ofMillis(250);

  /** The defaults: pool wait 2 s, statements 5 s, locks 2 s, SQLite's write lock 5 s. */
  public static StoreTimeouts defaults() {
    return new StoreTimeouts(
        DEFAULT_POOL_WAIT, DEFAULT_STATEMENT_TIMEOUT, DEFAULT_LOCK_TIMEOUT, DEFAULT_BUSY_TIMEOUT);
  }

  public StoreTimeouts withPoolWait(Duration poolWait) {
    return new StoreTimeouts(poolWait, statementTimeout, lockTimeout, busyTimeout);
  }

  public StoreTimeouts withStatementTimeout(Duration statementTimeout) {
    return new StoreTimeouts(poolWait, statementTimeout, lockTimeout, busyTimeout);
  }

  public StoreTimeouts withLockTimeout(Duration lockTimeout) {
    return new StoreTimeouts(poolWait, statementTimeout, lockTimeout, busyTimeout);
  }

  public StoreTimeouts withBusyTimeout(Duration busyTimeout) {
    return new StoreTimeouts(poolWait, statementTimeout, lockTimeout, busyTimeout);
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof StoreTimeouts o
        && poolWait.equals(o.poolWait)
        && statementTimeout.equals(o.statementTimeout)
        && lockTimeout.equals(o.lockTimeout)
        && busyTimeout.equals(o.busyTimeout);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(poolWait, statementTimeout, lockTimeout, busyTimeout);
  }

  @Override
  public String toString() {
    return "StoreTimeouts[poolWait="
        + poolWait
        + ", statementTimeout="
        + statementTimeout
        + ", lockTimeout="
        + lockTimeout
        + ", busyTimeout="
        + busyTimeout
        + "]";
  }
}
