package dev.jarvis.host;

import java.time.Instant;
import java.util.Objects;

/**
 * The idempotency record a {@link Mutation} claims: an insert that fails while a live record holds
 * the scope.
 *
 * @param scope Actor, operation, protocol version and key
 * @param entry the fingerprint and the response this mutation answers
 * @param notBefore a record of the scope stored before this instant has expired and is replaced
 */
public record IdempotencyClaim(
    IdempotencyStore.Scope scope, IdempotencyStore.Entry entry, Instant notBefore) {

  public IdempotencyClaim {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(entry, "entry");
    Objects.requireNonNull(notBefore, "notBefore");
  }
}
