package dev.jarvis.host;

import java.time.Duration;
import java.util.Objects;

/**
 * The store cannot serve now: it cannot be reached, its pool has no connection free within its
 * wait, a lock or a statement ran past its limit, or it is out of space or read-only. A store
 * throws it from any of its methods; the host answers it {@code 503} with {@code Retry-After} and a
 * {@code ProtocolError} that says a retry with the same {@code Jarvis-Idempotency-Key} is safe
 * ({@link ProtocolHost#hostFailure}), never {@code 500}: the request was fine, the store was not.
 *
 * <p>A store throws it only where a retry can succeed. A defect (a statement the database cannot
 * parse, a broken schema) is any other exception, answered {@code 500}.
 */
public final class StoreUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** How long a client is asked to wait unless the store says otherwise. */
  public static final Duration DEFAULT_RETRY_AFTER = Duration.ofSeconds(1);

  /** What the store knows of the unit of work it was asked to commit. */
  public enum Outcome {
    /** Nothing of the request was written (reads, and units that failed before their commit). */
    NOT_WRITTEN,
    /**
     * The commit was sent and its answer lost (the connection died during commit): the unit may or
     * may not have been written. Its idempotency record is written with it, so a retry with the
     * same key either replays the first answer or applies the request once.
     */
    UNKNOWN
  }

  private final Outcome outcome;
  private final Duration retryAfter;

  /** A fault that wrote nothing, retried after {@link #DEFAULT_RETRY_AFTER}. */
  public StoreUnavailableException(String message, Throwable cause) {
    this(message, cause, Outcome.NOT_WRITTEN, DEFAULT_RETRY_AFTER);
  }

  /**
   * @param message what failed, for the log (never sent to the caller)
   * @param cause the store's own exception
   * @param outcome whether the unit may have been written
   * @param retryAfter how long to ask the caller to wait, rounded up to whole seconds on the wire
   */
  public StoreUnavailableException(
      String message, Throwable cause, Outcome outcome, Duration retryAfter) {
    super(message, cause);
    this.outcome = Objects.requireNonNull(outcome, "outcome");
    this.retryAfter = Objects.requireNonNull(retryAfter, "retryAfter");
    if (retryAfter.isNegative()) {
      throw new IllegalArgumentException("retryAfter must not be negative");
    }
  }

  /** Whether the unit may have been written. */
  public Outcome outcome() {
    return outcome;
  }

  /** How long to ask the caller to wait before the retry. */
  public Duration retryAfter() {
    return retryAfter;
  }
}
