package dev.jarvis.store.jdbc;

import dev.jarvis.host.CommitResult;
import dev.jarvis.host.IdempotencyClaim;
import dev.jarvis.host.IdempotencyStore.Entry;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.StoreUnavailableException;
import dev.jarvis.host.UnitOfWork;
import dev.jarvis.host.UnitOfWorkException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * Runs a unit of work as one transaction: the {@link UnitWriter}'s conditional writes, then the
 * mutation's step ({@code CommitHook}, for an outbox) given this transaction's {@code Connection}
 * as the {@link UnitOfWork}'s resource, then the one commit. Any failed condition rolls the whole
 * transaction back. A deadlock or serialisation failure is run again at once, up to {@value
 * #ATTEMPTS} times; so is a unit whose key's holder expired before it could be read.
 *
 * <p>A connection goes back to the pool only after its unit ended in a commit or a rollback that
 * the driver confirmed; any other connection is evicted. sqlite-jdbc, after {@code SQLITE_FULL},
 * leaves the connection in autocommit while it still reports a transaction: returned to the pool,
 * it would commit each later unit statement by statement, so an idempotency record could outlive
 * its event. Every wait is bounded: the pool's wait for a connection, and the statement and lock
 * timeouts (the pool's session settings, or {@link StatementBounds} per unit on an application's
 * {@code DataSource}). A failure the database can recover from is a {@link
 * StoreUnavailableException}; when the commit itself failed, its outcome is unknown and the
 * exception says so.
 */
final class UnitOfWorkRunner {

  private static final int ATTEMPTS = 5;

  private final DataSource pool;
  private final Dialect dialect;
  private final UnitWriter writer;
  private final StatementBounds bounds;
  private final StoreReads reads;
  // Set when a unit failed for want of space or a writable file, cleared by the next unit that
  // ends: while set, readiness probes with a write (StoreReadiness).
  private volatile boolean cannotWrite;

  UnitOfWorkRunner(
      DataSource pool,
      Dialect dialect,
      UnitWriter writer,
      StatementBounds bounds,
      StoreReads reads) {
    this.pool = pool;
    this.dialect = dialect;
    this.writer = writer;
    this.bounds = bounds;
    this.reads = reads;
  }

  /**
   * Whether the last unit that ended failed for want of space or a writable file (disk full,
   * read-only).
   */
  boolean cannotWrite() {
    return cannotWrite;
  }

  /**
   * The commit itself failed: the database may have written the unit or not, and only the
   * idempotency record (written in the same transaction) will tell.
   */
  private static final class CommitLost extends Exception {
    private static final long serialVersionUID = 1L;

    CommitLost(SQLException cause) {
      super(cause.getMessage(), cause);
    }
  }

  CommitResult commit(Mutation mutation) {
    for (int attempt = 1; ; attempt++) {
      Optional<CommitResult> result;
      try {
        result = attempt(mutation);
      } catch (CommitLost lost) {
        // Never retried here: a second unit could apply the request twice. The host asks the
        // caller to retry with the same key, which replays the first answer if this one committed.
        throw new StoreUnavailableException(
            "the commit failed; its outcome is unknown",
            lost.getCause(),
            StoreUnavailableException.Outcome.UNKNOWN,
            StoreUnavailableException.DEFAULT_RETRY_AFTER);
      } catch (SQLException e) {
        if (attempt >= ATTEMPTS || !dialect.retryable(e)) {
          cannotWrite = cannotWrite || dialect.cannotWrite(e);
          throw dialect.failure("commit failed", e);
        }
        continue;
      }
      if (result.isPresent()) {
        cannotWrite = false;
        return result.get();
      }
      // The holder of the key expired or was purged in between: claim again.
      if (attempt >= ATTEMPTS) {
        throw new JdbcStoreException("commit kept losing its idempotency key", null);
      }
    }
  }

  /**
   * One transaction: its result, or empty when the key's holder vanished before it could be read.
   * Thrown {@link SQLException}s wrote nothing (the transaction was rolled back, or its connection
   * is gone, which rolls it back on the server); a failed rollback is added to the first error as
   * suppressed.
   */
  private Optional<CommitResult> attempt(Mutation mutation) throws SQLException, CommitLost {
    if (writer.oneStatement() && !bounds.setPerUnit() && mutation.step().isEmpty()) {
      return alone(mutation);
    }
    Connection c = pool.getConnection();
    // Set once the unit ended in a commit or rollback the driver confirmed: only then can the
    // connection serve another unit.
    boolean ended = false;
    try {
      c.setAutoCommit(false);
      try {
        bounds.bound(c);
        write(c, mutation);
      } catch (UnitStopped stop) {
        c.rollback();
        if (stop.outcome == CommitResult.Outcome.CONFLICT) {
          ended = true;
          return Optional.of(CommitResult.conflict());
        }
        IdempotencyClaim claim = mutation.claim().orElseThrow();
        // On this connection: borrowing a second one while holding it could starve the pool.
        Optional<Entry> first =
            stop.first.isPresent()
                ? stop.first.get()
                : reads.entry(c, claim.scope(), claim.notBefore());
        c.commit();
        ended = true;
        return first.map(CommitResult::keyTaken);
      } catch (SQLException | RuntimeException e) {
        ended = rollBack(c, e);
        throw e;
      }
      try {
        c.commit();
      } catch (SQLException e) {
        rollBack(c, e);
        throw new CommitLost(e);
      }
      ended = true;
      return Optional.of(CommitResult.committed());
    } finally {
      release(c, ended);
    }
  }

  /**
   * A one-statement unit without a step on the store's own pool (PostgreSQL's call of {@code
   * jarvis_commit}) as a transaction of its own (autocommit), which saves the {@code COMMIT} round
   * trip. The server commits the statement's writes when it returns and undoes all of them when it
   * fails, so a failure the server reported wrote nothing, and a failed condition needs no
   * rollback. A statement whose answer never came (the link or the server went away) may have
   * committed before: an unknown outcome, as a commit whose answer was lost. On an application's
   * {@code DataSource} the unit stays a transaction, which its {@code SET LOCAL} timeouts need; a
   * step needs one too.
   */
  private Optional<CommitResult> alone(Mutation mutation) throws SQLException, CommitLost {
    Connection c = pool.getConnection();
    // Set once the server ended the statement's transaction and said how: only then can the
    // connection serve another unit.
    boolean ended = false;
    try {
      c.setAutoCommit(true); // the pool's default; a no-op that holds it to it
      try {
        writer.write(c, mutation);
      } catch (UnitStopped stop) {
        ended = true;
        if (stop.outcome == CommitResult.Outcome.CONFLICT) {
          return Optional.of(CommitResult.conflict());
        }
        // A one-statement writer reads the key's holder in the same statement.
        return stop.first.orElseThrow().map(CommitResult::keyTaken);
      } catch (SQLException e) {
        if (dialect.answerLost(e)) {
          throw new CommitLost(e);
        }
        ended = true;
        throw e;
      }
      ended = true;
      return Optional.of(CommitResult.committed());
    } finally {
      release(c, ended);
    }
  }

  private void write(Connection c, Mutation mutation) throws SQLException, UnitStopped {
    writer.write(c, mutation);
    // Every condition held; the step writes on this connection, inside this transaction.
    try {
      mutation.runStep(UnitOfWork.of(c));
    } catch (UnitOfWorkException e) {
      if (e.getCause() instanceof SQLException sql) {
        throw sql; // a serialization failure is retried like the mutation's own statements
      }
      throw e;
    }
  }

  /**
   * Rolls back after {@code first}; whether the driver confirmed it (else it joins {@code first}).
   */
  private static boolean rollBack(Connection c, Exception first) {
    try {
      c.rollback();
      return true;
    } catch (SQLException | RuntimeException e) {
      first.addSuppressed(e);
      return false;
    }
  }

  /**
   * Back to the pool when its unit ended cleanly, else evicted: closed for good, so that no later
   * unit runs on a connection whose transaction state the driver may misreport.
   */
  private void release(Connection c, boolean ended) {
    if (ended) {
      try {
        c.close();
        return;
      } catch (SQLException | RuntimeException e) {
        // The pool could not reset it (its own rollback or autocommit failed): evict it.
      }
    }
    PooledConnections.evict(pool, c);
  }
}
