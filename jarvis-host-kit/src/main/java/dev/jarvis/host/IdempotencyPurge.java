package dev.jarvis.host;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Deletes a host's idempotency records past their retention now and then ({@link
 * ProtocolHost#purgeExpiredIdempotencyRecords}), as a host on a durable store must: without it the
 * store's idempotency table grows for as long as the host runs. Which records are past their
 * retention is decided by the host's clock, not by the schedule. A run that fails is logged and the
 * next one tries again.
 */
public final class IdempotencyPurge {

  /** A schedule of runs, until it is closed. */
  @FunctionalInterface
  public interface Running extends AutoCloseable {
    @Override
    void close();
  }

  private static final System.Logger LOG = System.getLogger("dev.jarvis.host");

  private final ProtocolHost host;

  public IdempotencyPurge(ProtocolHost host) {
    this.host = Objects.requireNonNull(host, "host");
  }

  /** One run: the records deleted, or none when the store failed (logged). */
  public long runOnce() {
    try {
      return host.purgeExpiredIdempotencyRecords();
    } catch (RuntimeException e) {
      // The next run tries again; a failed cleanup must not end the schedule.
      LOG.log(System.Logger.Level.WARNING, "idempotency retention cleanup failed: " + e);
      return 0;
    }
  }

  /**
   * Runs every {@code interval}, first after one interval, on a daemon thread of its own ({@code
   * jarvis-idempotency-purge}) until the answer is closed.
   */
  public Running every(Duration interval) {
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("the purge interval must be positive: " + interval);
    }
    ScheduledExecutorService executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "jarvis-idempotency-purge");
              t.setDaemon(true);
              return t;
            });
    long millis = interval.toMillis();
    executor.scheduleWithFixedDelay(this::runOnce, millis, millis, TimeUnit.MILLISECONDS);
    return executor::shutdownNow;
  }
}
