package dev.jarvis.host;

import java.util.Objects;
import java.util.Optional;

/**
 * How a {@link HostStores#commit} ended. Only {@link Outcome#COMMITTED} wrote anything.
 *
 * @param outcome what happened
 * @param firstResponse with {@link Outcome#KEY_TAKEN}: the live record holding the key, which the
 *     host answers with (or refuses as a key reused for another request)
 */
public record CommitResult(Outcome outcome, Optional<IdempotencyStore.Entry> firstResponse) {

  /** How a commit ended. */
  public enum Outcome {
    /** Everything was written. */
    COMMITTED,
    /** A live idempotency record holds the key; nothing was written. */
    KEY_TAKEN,
    /**
     * The chain write's condition failed (the id exists, the chain moved on, the WorkSession is
     * sealed or absent), a create-only record exists, or another WorkSession holds the kind and id
     * of a WorkSession record; nothing was written.
     */
    CONFLICT
  }

  public CommitResult {
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(firstResponse, "firstResponse");
    if ((outcome == Outcome.KEY_TAKEN) != firstResponse.isPresent()) {
      throw new IllegalArgumentException("the first response comes with KEY_TAKEN only");
    }
  }

  /** Everything was written. */
  public static CommitResult committed() {
    return new CommitResult(Outcome.COMMITTED, Optional.empty());
  }

  /** Nothing was written: a condition failed. */
  public static CommitResult conflict() {
    return new CommitResult(Outcome.CONFLICT, Optional.empty());
  }

  /** Nothing was written: {@code first} holds the key. */
  public static CommitResult keyTaken(IdempotencyStore.Entry first) {
    return new CommitResult(Outcome.KEY_TAKEN, Optional.of(first));
  }
}
