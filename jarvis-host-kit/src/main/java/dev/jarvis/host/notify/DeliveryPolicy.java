package dev.jarvis.host.notify;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link NotificationDispatcher} retries: attempt {@code n} failed, the next comes after
 * {@code min(maxBackoff, firstBackoff * 2^(n-1))} times a jitter factor in [0.5, 1) (so instances
 * retrying together spread out); after {@code maxAttempts} attempts, or once the notification is
 * older than {@code maxAge}, it is dead-lettered.
 *
 * @param maxAttempts attempts before a dead letter (at least 1)
 * @param maxAge age (from the event) after which a failed notification is dead-lettered
 * @param firstBackoff the wait after the first failed attempt
 * @param maxBackoff the longest wait
 * @param lease how long a claimed notification is one instance's (longer than an attempt takes)
 * @param batch how many notifications one run claims
 */
public record DeliveryPolicy(
    int maxAttempts,
    Duration maxAge,
    Duration firstBackoff,
    Duration maxBackoff,
    Duration lease,
    int batch) {

  /** 8 attempts over about 21 minutes at most (10 s doubling to 10 min), 24 h, 2 min lease, 50. */
  public static final DeliveryPolicy DEFAULTS =
      new DeliveryPolicy(
          8,
          Duration.ofHours(24),
          Duration.ofSeconds(10),
          Duration.ofMinutes(10),
          Duration.ofMinutes(2),
          50);

  public DeliveryPolicy {
    if (maxAttempts < 1 || batch < 1) {
      throw new IllegalArgumentException("maxAttempts and batch must be at least 1");
    }
    for (Duration d : new Duration[] {maxAge, firstBackoff, maxBackoff, lease}) {
      if (Objects.requireNonNull(d).isNegative() || d.isZero()) {
        throw new IllegalArgumentException("durations must be positive: " + d);
      }
    }
  }

  public DeliveryPolicy withMaxAttempts(int n) {
    return new DeliveryPolicy(n, maxAge, firstBackoff, maxBackoff, lease, batch);
  }

  public DeliveryPolicy withMaxAge(Duration age) {
    return new DeliveryPolicy(maxAttempts, age, firstBackoff, maxBackoff, lease, batch);
  }

  public DeliveryPolicy withBackoff(Duration first, Duration max) {
    return new DeliveryPolicy(maxAttempts, maxAge, first, max, lease, batch);
  }

  public DeliveryPolicy withLease(Duration lease) {
    return new DeliveryPolicy(maxAttempts, maxAge, firstBackoff, maxBackoff, lease, batch);
  }

  public DeliveryPolicy withBatch(int batch) {
    return new DeliveryPolicy(maxAttempts, maxAge, firstBackoff, maxBackoff, lease, batch);
  }

  /** The wait after attempt {@code attempts} failed, {@code jitter} in [0, 1). */
  Duration backoff(int attempts, double jitter) {
    Duration base = firstBackoff;
    for (int i = 1; i < attempts && base.compareTo(maxBackoff) < 0; i++) {
      base = base.multipliedBy(2);
    }
    if (base.compareTo(maxBackoff) > 0) {
      base = maxBackoff;
    }
    double factor = 0.5 + 0.5 * Math.min(Math.max(jitter, 0), 0.999_999);
    return Duration.ofMillis(Math.max(1, (long) (base.toMillis() * factor)));
  }
}
