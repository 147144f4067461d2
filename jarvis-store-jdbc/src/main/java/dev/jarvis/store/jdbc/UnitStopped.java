package dev.jarvis.store.jdbc;

import dev.jarvis.host.CommitResult;
import dev.jarvis.host.IdempotencyStore.Entry;
import java.util.Optional;

/**
 * A writer found a condition of the unit failed: the unit stops with this outcome, and its
 * transaction is rolled back.
 */
final class UnitStopped extends Exception {
  private static final long serialVersionUID = 1L;

  /** {@link CommitResult.Outcome#CONFLICT} or {@link CommitResult.Outcome#KEY_TAKEN}. */
  final transient CommitResult.Outcome outcome;

  // For KEY_TAKEN, the key's record when the statement that found the key taken read it too
  // (empty inside: it expired before it could be read); empty: still to be read.
  final transient Optional<Optional<Entry>> first;

  static UnitStopped conflict() {
    return new UnitStopped(CommitResult.Outcome.CONFLICT, Optional.empty());
  }

  /** The key is taken; its record still to be read. */
  static UnitStopped keyTaken() {
    return new UnitStopped(CommitResult.Outcome.KEY_TAKEN, Optional.empty());
  }

  /** The key is taken by {@code first}, read by the same statement (empty: it expired since). */
  static UnitStopped keyTaken(Optional<Entry> first) {
    return new UnitStopped(CommitResult.Outcome.KEY_TAKEN, Optional.of(first));
  }

  private UnitStopped(CommitResult.Outcome outcome, Optional<Optional<Entry>> first) {
    super(null, null, false, false);
    this.outcome = outcome;
    this.first = first;
  }
}
