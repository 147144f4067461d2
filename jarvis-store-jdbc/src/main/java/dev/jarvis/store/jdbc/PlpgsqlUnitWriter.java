package dev.jarvis.store.jdbc;

import dev.jarvis.host.Mutation;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * PostgreSQL: the whole unit in one statement, the call of the PL/pgSQL function {@code
 * jarvis_commit} (migration V6, through {@link CommitCall}), which raises SQLSTATE {@link
 * CommitCall#CONFLICT_STATE} for a failed condition after the claim and answers a taken key with
 * the key's record.
 */
final class PlpgsqlUnitWriter implements UnitWriter {

  private final CommitCall call;

  PlpgsqlUnitWriter(Tables tables) {
    this.call = new CommitCall(tables.commitFunction(), tables.outbox());
  }

  @Override
  public void write(Connection c, Mutation mutation) throws SQLException, UnitStopped {
    CommitCall.Outcome outcome;
    try {
      outcome = call.run(c, mutation);
    } catch (SQLException e) {
      if (CommitCall.CONFLICT_STATE.equals(e.getSQLState())) {
        throw UnitStopped.conflict();
      }
      throw e;
    }
    if (outcome instanceof CommitCall.KeyTaken taken) {
      throw UnitStopped.keyTaken(taken.first());
    }
  }

  @Override
  public boolean oneStatement() {
    return true;
  }
}
