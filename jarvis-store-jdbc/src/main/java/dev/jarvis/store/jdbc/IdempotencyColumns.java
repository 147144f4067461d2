package dev.jarvis.store.jdbc;

import dev.jarvis.host.IdempotencyStore;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * How an idempotency record's key and times are written into the idempotency table's columns, the
 * same for the claim that writes it, the read that finds it and the purge that deletes it.
 */
final class IdempotencyColumns {

  private IdempotencyColumns() {}

  /** Binds the key's four columns as parameters 1 to 4. */
  static void bindScope(PreparedStatement s, IdempotencyStore.Scope scope) throws SQLException {
    s.setString(1, scope.actorId());
    s.setString(2, scope.operationId());
    s.setString(3, scope.protocolVersion());
    s.setString(4, scope.key());
  }

  /** Microseconds since the epoch: PostgreSQL's precision, kept by both databases. */
  static long micros(Instant instant) {
    return ChronoUnit.MICROS.between(Instant.EPOCH, instant);
  }

  static Instant instant(long micros) {
    return Instant.EPOCH.plus(micros, ChronoUnit.MICROS);
  }
}
