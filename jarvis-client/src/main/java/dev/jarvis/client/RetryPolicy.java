package dev.jarvis.client;

import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import javax.net.ssl.SSLException;

/**
 * When and how long to wait before trying a request again.
 *
 * <p>Only failures that are safe to repeat are retried: the connection failed or timed out, or the
 * host answered one of {@link #RETRYABLE_STATUSES}; and once, with no wait, when the host refused
 * the request's timestamp as stale. A failure that another attempt cannot mend is not retried
 * ({@link #permanentFailure}): a host name that does not resolve, a TLS handshake refused. Every
 * attempt carries the same idempotency key and body, so a host that did act on a lost attempt
 * answers the retry with its first response.
 *
 * @param maxAttempts attempts in all, including the first; 1 disables retries
 * @param initialBackoff wait before the second attempt
 * @param maxBackoff cap on any one wait, {@code Retry-After} included
 * @param multiplier growth of the wait per attempt
 * @param jitter fraction of the wait that is randomised, 0 to 1 (0.2: the wait is 80–100%)
 */
public record RetryPolicy(
    int maxAttempts,
    Duration initialBackoff,
    Duration maxBackoff,
    double multiplier,
    double jitter) {

  /** 4 attempts, waits of 200 ms, 400 ms, 800 ms (capped at 5 s), 20% jitter. */
  public static final RetryPolicy DEFAULT =
      new RetryPolicy(4, Duration.ofMillis(200), Duration.ofSeconds(5), 2.0, 0.2);

  /** One attempt, no retries. */
  public static final RetryPolicy NONE = new RetryPolicy(1, Duration.ZERO, Duration.ZERO, 1.0, 0);

  /**
   * The statuses that say "not now" rather than "no": 429, 502, 503 and 504. The one place they are
   * named; a call that still gets one after its last attempt fails as a {@link
   * JarvisTransportException}.
   */
  public static final Set<Integer> RETRYABLE_STATUSES = Set.of(429, 502, 503, 504);

  public RetryPolicy {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be >= 1");
    }
    Objects.requireNonNull(initialBackoff, "initialBackoff");
    Objects.requireNonNull(maxBackoff, "maxBackoff");
    if (multiplier < 1.0) {
      throw new IllegalArgumentException("multiplier must be >= 1");
    }
    if (jitter < 0 || jitter > 1) {
      throw new IllegalArgumentException("jitter must be within [0, 1]");
    }
  }

  /** Whether an answer with this status is worth another attempt. */
  public static boolean isRetryableStatus(int status) {
    return RETRYABLE_STATUSES.contains(status);
  }

  /**
   * Why a failed attempt is not worth repeating, if it is not: the same request would fail the same
   * way at once, so retrying only delays the answer. Looks through the whole cause chain, since
   * {@code java.net.http} wraps the reason in a {@code ConnectException} or an {@code IOException}.
   *
   * @return a short reason for the message the caller gets, or empty for a transient failure
   */
  public static Optional<String> permanentFailure(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof UnknownHostException || t instanceof UnresolvedAddressException) {
        return Optional.of("the host name does not resolve");
      }
      if (t instanceof SSLException) {
        return Optional.of("the TLS handshake failed");
      }
    }
    return Optional.empty();
  }

  /**
   * The wait after failed attempt {@code attempt} (1-based).
   *
   * @param random a value in [0, 1) that picks the jitter
   */
  public Duration backoff(int attempt, double random) {
    double millis = initialBackoff.toMillis() * Math.pow(multiplier, attempt - 1);
    millis = Math.min(millis, maxBackoff.toMillis());
    millis = millis * (1 - jitter * random);
    return Duration.ofMillis(Math.round(millis));
  }
}
