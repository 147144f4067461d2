package dev.jarvis.host.notify;

import java.time.Duration;
import java.util.Objects;

/**
 * How a {@link NotificationDispatcher} retries: attempt {@code n} failed, the next comes after
 * {@code min(maxBackoff, firstBackoff * 2^(n-1))} times a jitter factor in [0.5, 1) (so instances
 * retrying together spread out); after {@code maxAttempts} attempts, or once the notification is
 * older than {@code maxAge}, it is dead-lettered.
 */
public final class DeliveryPolicy {
  private final int maxAttempts;
  private final Duration maxAge;
  private final Duration firstBackoff;
  private final Duration maxBackoff;
  private final Duration lease;
  private final int batch;

  private DeliveryPolicy(
      int maxAttempts,
      Duration maxAge,
      Duration firstBackoff,
      Duration maxBackoff,
      Duration lease,
      int batch) {
    if (maxAttempts < 1 || batch < 1) {
      throw new IllegalArgumentException("maxAttempts and batch must be at least 1");
    }
    for (Duration d : new Duration[] {maxAge, firstBackoff, maxBackoff, lease}) {
      if (Objects.requireNonNull(d).isNegative() || d.isZero()) {
        throw new IllegalArgumentException("durations must be positive: " + d);
      }
    }
    this.maxAttempts = maxAttempts;
    this.maxAge = maxAge;
    this.firstBackoff = firstBackoff;
    this.maxBackoff = maxBackoff;
    this.lease = lease;
    this.batch = batch;
  }

  /** Attempts before a dead letter (at least 1). */
  public int maxAttempts() {
    return maxAttempts;
  }

  /** Age (from the event) after which a failed notification is dead-lettered. */
  public Duration maxAge() {
    return maxAge;
  }

  /** The wait after the first failed attempt. */
  public Duration firstBackoff() {
    return firstBackoff;
  }

  /** The longest wait. */
  public Duration maxBackoff() {
    return maxBackoff;
  }

  /** How long a claimed notification is one instance's (longer than an attempt takes). */
  public Duration lease() {
    return lease;
  }

  /** How many notifications one run claims. */
  public int batch() {
    return batch;
  }

  /** 8 attempts over about 21 minutes at most (10 s doubling to 10 min), 24 h, 2 min lease, 50. */
  public static final DeliveryPolicy DEFAULTS =
      new DeliveryPolicy(
          8,
          Duration.ofHours(24),
          Duration.ofSeconds(10),
          Duration.ofMinutes(10),
          Duration.ofMinutes(2),
          50);

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

  @Override
  public boolean equals(Object other) {
    return other instanceof DeliveryPolicy o
        && maxAttempts == o.maxAttempts
        && maxAge.equals(o.maxAge)
        && firstBackoff.equals(o.firstBackoff)
        && maxBackoff.equals(o.maxBackoff)
        && lease.equals(o.lease)
        && batch == o.batch;
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(maxAttempts, maxAge, firstBackoff, maxBackoff, lease, batch);
  }

  @Override
  public String toString() {
    return "DeliveryPolicy[maxAttempts="
        + maxAttempts
        + ", maxAge="
        + maxAge
        + ", firstBackoff="
        + firstBackoff
        + ", maxBackoff="
        + maxBackoff
        + ", lease="
        + lease
        + ", batch="
        + batch
        + "]";
  }
}
