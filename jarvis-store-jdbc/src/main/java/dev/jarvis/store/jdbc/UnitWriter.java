package dev.jarvis.store.jdbc;

import dev.jarvis.host.Mutation;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * Writes a unit of work's conditional statements on a connection: the idempotency claim, the chain
 * write with its event and citations, the records with their host-wide ids, and the notification,
 * in that order and each under its condition. One writer per dialect, both giving the same stored
 * result for the same unit: PostgreSQL calls the server-side function ({@link PlpgsqlUnitWriter}),
 * SQLite runs the statements one by one ({@link SqliteUnitWriter}). The writer never commits nor
 * rolls back: {@link UnitOfWorkRunner} owns the transaction.
 */
sealed interface UnitWriter permits PlpgsqlUnitWriter, SqliteUnitWriter {

  /** The writer of {@code dialect}'s databases, on {@code tables}. */
  static UnitWriter of(Dialect dialect, Tables tables) {
    return switch (dialect) {
      case POSTGRESQL -> new PlpgsqlUnitWriter(tables);
      case SQLITE -> new SqliteUnitWriter(tables);
    };
  }

  /**
   * Writes {@code mutation}'s claim, chain write, records and notification on {@code c}.
   *
   * @throws UnitStopped a condition failed: the caller rolls back whatever was written
   * @throws SQLException the database refused a statement or the link failed
   */
  void write(Connection c, Mutation mutation) throws SQLException, UnitStopped;

  /**
   * Whether {@link #write} is one statement, which may then run as a transaction of its own
   * (autocommit): the server commits its writes when it returns and undoes all of them when it
   * fails, which saves the {@code COMMIT} round trip.
   */
  boolean oneStatement();
}
