package dev.jarvis.client;

import java.time.Duration;
import java.util.Objects;

/**
 * How {@link JarvisClient#awaitResolution} watches a WorkSession while it waits. On a host with the
 * {@code event-stream} capability the stream wakes the await when an event is committed, and only
 * {@code hostLostAfter} applies; elsewhere the client polls the host's event log (or, on a host
 * without it, re-reads the Request), and so does a subscription on a host without {@code
 * event-stream} ({@link JarvisClient#subscribe}): the first wait after a quiet read is {@code
 * firstPoll}, each further quiet wait {@code multiplier} times longer up to {@code maxPoll}, and
 * any new event starts again from {@code firstPoll}. The waits come from the client's {@link
 * Sleeper} and are measured on its {@link java.time.Clock}, so a test drives them without waiting.
 *
 * @param firstPoll the wait after a read that found nothing new
 * @param maxPoll the longest wait between two reads: a human's answer is seen at most about this
 *     long after the host recorded it
 * @param multiplier growth of the wait per quiet read, at least 1
 * @param hostLostAfter how long the host may stay unreachable (every read a transport failure,
 *     after the client's own retries) before the await ends as {@link
 *     RequestResolution.Outcome#HOST_LOST}; a shorter outage is waited out
 */
public record AwaitPolicy(
    Duration firstPoll, Duration maxPoll, double multiplier, Duration hostLostAfter) {

  /** Waits of 200 ms growing to 800 ms; the host lost after 30 s without an answer. */
  public static final AwaitPolicy DEFAULT =
      new AwaitPolicy(Duration.ofMillis(200), Duration.ofMillis(800), 2.0, Duration.ofSeconds(30));

  public AwaitPolicy {
    Objects.requireNonNull(firstPoll, "firstPoll");
    Objects.requireNonNull(maxPoll, "maxPoll");
    Objects.requireNonNull(hostLostAfter, "hostLostAfter");
    if (firstPoll.isNegative() || firstPoll.isZero() || maxPoll.compareTo(firstPoll) < 0) {
      throw new IllegalArgumentException("firstPoll must be > 0 and maxPoll >= firstPoll");
    }
    if (multiplier < 1.0) {
      throw new IllegalArgumentException("multiplier must be >= 1");
    }
    if (hostLostAfter.isNegative()) {
      throw new IllegalArgumentException("hostLostAfter must not be negative");
    }
  }

  /** The wait after {@code quiet} reads in a row found nothing new (1 for the first). */
  public Duration poll(int quiet) {
    double millis = firstPoll.toMillis() * Math.pow(multiplier, Math.max(0, quiet - 1));
    return Duration.ofMillis(Math.round(Math.min(millis, maxPoll.toMillis())));
  }
}
