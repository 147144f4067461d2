package dev.jarvis.host;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Writes {@code request.expired} for Requests past their {@code expires_at} on a schedule ({@link
 * ProtocolHost#expireDueRequests}), so that a Request expires on time even when nobody touches its
 * WorkSession, and an agent waiting on it is told. Without a sweep the host kit expires a Request
 * only at the next touch of its WorkSession (docs/host.md, "Request expiry and supersession"); the
 * pure kit runs none unless started, the reference host runs one every {@link #DEFAULT_INTERVAL}.
 *
 * <p>Which Requests are due is decided by the host's clock, not by the schedule, so a Request is
 * written expired at most about one interval (plus a run's own time) after its {@code expires_at}.
 * One sweep per host instance: instances sharing a store each sweep, and the store's conditional
 * commit lets exactly one of them write each expiry (the others write nothing). A run that fails
 * (the store unavailable) is logged and the next one tries again.
 */
public final class RequestExpirySweep {

  /** How often the reference host sweeps: a Request is written expired within about a second. */
  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);

  /** A schedule of runs, until it is closed. */
  @FunctionalInterface
  public interface Running extends AutoCloseable {
    @Override
    void close();
  }

  private static final System.Logger LOG = System.getLogger("dev.jarvis.host");

  private final ProtocolHost host;

  public RequestExpirySweep(ProtocolHost host) {
    this.host = Objects.requireNonNull(host, "host");
  }

  /** One run: the expiry events this host wrote, or none when the store failed (logged). */
  public int runOnce() {
    try {
      return host.expireDueRequests();
    } catch (RuntimeException e) {
      // The next run tries again; a failed sweep must not end the schedule.
      LOG.log(System.Logger.Level.WARNING, "request expiry sweep failed: " + e);
      return 0;
    }
  }

  /**
   * Runs every {@code interval}, first after one interval, on a daemon thread of its own ({@code
   * jarvis-request-expiry}) until the answer is closed.
   */
  public Running every(Duration interval) {
    ScheduledExecutorService executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "jarvis-request-expiry");
              t.setDaemon(true);
              return t;
            });
    Running running = every(interval, executor);
    return () -> {
      running.close();
      executor.shutdownNow();
    };
  }

  /**
   * Runs every {@code interval}, first after one interval, on {@code scheduler} (the caller's: a
   * test's hand-driven one, or an application's shared pool), until the answer is closed; closing
   * cancels the runs, not the scheduler.
   */
  public Running every(Duration interval, ScheduledExecutorService scheduler) {
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("the sweep interval must be positive: " + interval);
    }
    long millis = interval.toMillis();
    ScheduledFuture<?> runs =
        scheduler.scheduleWithFixedDelay(this::runOnce, millis, millis, TimeUnit.MILLISECONDS);
    return () -> runs.cancel(false);
  }
}
