package dev.jarvis.host;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Whether the store can serve, as the readiness probe reports it: checked in the background every
 * {@code interval} ({@link HostStores#ready()}, on a thread of its own), each check given {@code
 * timeout} to answer. A probe reads the last result and never waits: a store check may block for as
 * long as the database stalls (a pool with no free connection, a link that went silent), and a
 * probe on an I/O thread must not freeze every connection that thread serves.
 *
 * <p>A check that does not answer in time is DOWN; while it still runs, no second one starts (a
 * hung database does not collect hung threads), and each later round waits on it again, so the
 * report turns UP within a round of the store answering again. The first check runs before {@link
 * #start} returns.
 *
 * <p>Shared by the reference host's {@code /health/ready} and the Spring Boot starter's health
 * indicator: one rule for how a probe learns about the store.
 */
public final class StoreReadiness implements AutoCloseable {

  /** How often the store is checked unless configured otherwise. */
  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);

  /** How long a check may take unless configured otherwise. */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(1);

  private static final System.Logger LOG = System.getLogger(StoreReadiness.class.getName());

  private final HostStores stores;
  private final Duration timeout;
  private final ScheduledExecutorService rounds;
  private final ExecutorService checks;
  private volatile boolean ready;
  // Touched by the rounds' one thread only.
  private Future<Boolean> running;
  private boolean checked;

  private StoreReadiness(HostStores stores, Duration timeout) {
    this.stores = stores;
    this.timeout = timeout;
    this.rounds = Executors.newSingleThreadScheduledExecutor(daemon("jarvis-readiness"));
    this.checks = Executors.newSingleThreadExecutor(daemon("jarvis-readiness-check"));
  }

  /** Starts checking {@code stores} now and every {@code interval}. */
  public static StoreReadiness start(HostStores stores, Duration interval, Duration timeout) {
    Objects.requireNonNull(stores, "stores");
    if (interval.isNegative() || interval.isZero() || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("readiness interval and timeout must be positive");
    }
    StoreReadiness readiness = new StoreReadiness(stores, timeout);
    // The first round before the host serves (at most one timeout), so that a probe right after
    // start-up already says what the store does.
    try {
      readiness.rounds.submit(readiness::round).get();
    } catch (ExecutionException e) {
      throw new IllegalStateException("the first readiness check failed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    readiness.rounds.scheduleWithFixedDelay(
        readiness::round, interval.toNanos(), interval.toNanos(), TimeUnit.NANOSECONDS);
    return readiness;
  }

  /** The last check's answer: never blocks. */
  public boolean ready() {
    return ready;
  }

  private void round() {
    if (running == null || running.isDone()) {
      running = checks.submit(stores::ready);
    }
    boolean answer;
    try {
      answer = running.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      answer = false; // still running: the next round waits on the same check
    } catch (ExecutionException e) {
      answer = false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    // A change is worth a line; a store ready at start-up is not news.
    if (checked ? answer != ready : !answer) {
      LOG.log(
          answer ? System.Logger.Level.INFO : System.Logger.Level.WARNING,
          answer ? "store ready" : "store not ready: readiness reports 503");
    }
    ready = answer;
    checked = true;
  }

  /** Stops checking; a check still blocked in the store is interrupted. */
  @Override
  public void close() {
    rounds.shutdownNow();
    checks.shutdownNow();
  }

  private static ThreadFactory daemon(String name) {
    return task -> {
      Thread thread = new Thread(task, name);
      thread.setDaemon(true);
      return thread;
    };
  }
}
