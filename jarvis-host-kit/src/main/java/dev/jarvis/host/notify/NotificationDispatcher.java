package dev.jarvis.host.notify;

import dev.jarvis.core.notification.RequestNotification;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.DoubleSupplier;

/**
 * Delivers the outbox's due notifications through a {@link RequestNotifier}, one dispatcher per
 * host instance: each run leases due notifications ({@link NotificationOutbox#claimDue}), so
 * instances sharing a store never send one notification at the same time, delivers them one by one,
 * and records each outcome: delivered (removed), failed (retried after a back-off with jitter,
 * {@link DeliveryPolicy}) or given up (a {@link DeadLetter}). Delivery is at least once: an
 * instance that dies after sending and before recording sends nothing more, and the notification is
 * sent again once its lease ran out.
 *
 * <p>Time comes from the injected clock and the jitter from the injected supplier; {@link
 * #dispatchNow()} runs once (tests call it instead of waiting), {@link #every} on a schedule.
 * {@link #close()} stops it: no run starts afterwards and a run in progress stops before its next
 * notification; what it leased and did not attempt is claimed again after the lease.
 */
public final class NotificationDispatcher implements AutoCloseable {

  /** How often the reference host and the starter run it unless configured. */
  public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(1);

  /** What one run did. */
  public record Dispatched(int delivered, int retried, int deadLettered) {}

  /** A schedule of runs, until it is closed. */
  @FunctionalInterface
  public interface Running extends AutoCloseable {
    @Override
    void close();
  }

  private static final System.Logger LOG = System.getLogger("dev.jarvis.host.notify");

  private final NotificationOutbox outbox;
  private final RequestNotifier notifier;
  private final Clock clock;
  private final DoubleSupplier jitter;
  private final DeliveryPolicy policy;
  private final String owner;
  private final ReentrantLock running = new ReentrantLock();
  private volatile boolean closed;

  private NotificationDispatcher(Builder b) {
    this.outbox = b.outbox;
    this.notifier = b.notifier;
    this.clock = b.clock;
    this.jitter = b.jitter;
    this.policy = b.policy;
    this.owner = b.owner;
  }

  /** A dispatcher of {@code outbox} through {@code notifier}. */
  public static Builder builder(NotificationOutbox outbox, RequestNotifier notifier) {
    return new Builder(outbox, notifier);
  }

  /** This instance's lease owner name. */
  public String owner() {
    return owner;
  }

  /**
   * One run: leases the due notifications (at most {@link DeliveryPolicy#batch()}) and attempts
   * each. Runs of one dispatcher never overlap (a second caller waits for the first). A store
   * failure ends the run (logged); the next run tries again.
   */
  public Dispatched dispatchNow() {
    if (closed) {
      return new Dispatched(0, 0, 0);
    }
    running.lock();
    try {
      return run();
    } catch (RuntimeException e) {
      LOG.log(System.Logger.Level.WARNING, "notification dispatch failed: " + e);
      return new Dispatched(0, 0, 0);
    } finally {
      running.unlock();
    }
  }

  private Dispatched run() {
    List<OutboxEntry> due = outbox.claimDue(clock.instant(), policy.lease(), policy.batch(), owner);
    int delivered = 0;
    int retried = 0;
    int dead = 0;
    for (OutboxEntry entry : due) {
      if (closed) {
        break;
      }
      RequestNotification n = entry.notification();
      int attempts = entry.attempts() + 1;
      String failure;
      boolean permanent = false;
      try {
        notifier.deliver(n);
        outbox.delivered(n.id(), owner);
        delivered++;
        continue;
      } catch (NotificationRefusedException e) {
        failure = e.getMessage();
        permanent = true;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failure = "interrupted";
      } catch (Exception e) {
        failure = describe(e);
      }
      Instant now = clock.instant();
      boolean tooOld = Duration.between(n.occurredAt(), now).compareTo(policy.maxAge()) >= 0;
      if (permanent || attempts >= policy.maxAttempts() || tooOld) {
        outbox.deadLetter(n.id(), owner, attempts, now, failure);
        LOG.log(
            System.Logger.Level.WARNING,
            "notification "
                + n.id()
                + " dead-lettered after "
                + attempts
                + " attempts: "
                + failure);
        dead++;
      } else {
        Instant next = now.plus(policy.backoff(attempts, jitter.getAsDouble()));
        outbox.retryAt(n.id(), owner, attempts, next, failure);
        retried++;
      }
      if (Thread.currentThread().isInterrupted()) {
        break;
      }
    }
    return new Dispatched(delivered, retried, dead);
  }

  private static String describe(Exception e) {
    String message = e.getMessage();
    String text = e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    return text.length() > 500 ? text.substring(0, 500) : text;
  }

  /**
   * Runs every {@code interval}, first after one interval, on a daemon thread of its own ({@code
   * jarvis-notifications}) until the answer or the dispatcher is closed.
   */
  public Running every(Duration interval) {
    ScheduledExecutorService executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "jarvis-notifications");
              t.setDaemon(true);
              return t;
            });
    Running runs = every(interval, executor);
    return () -> {
      runs.close();
      executor.shutdownNow();
      try {
        executor.awaitTermination(policy.lease().toMillis(), TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
  }

  /** Runs every {@code interval} on {@code scheduler}; closing cancels the runs, not it. */
  public Running every(Duration interval, ScheduledExecutorService scheduler) {
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("the dispatch interval must be positive: " + interval);
    }
    long millis = interval.toMillis();
    ScheduledFuture<?> runs =
        scheduler.scheduleWithFixedDelay(this::dispatchNow, millis, millis, TimeUnit.MILLISECONDS);
    return () -> runs.cancel(false);
  }

  /** Stops: no run starts after this, and a run in progress ends after its current attempt. */
  @Override
  public void close() {
    closed = true;
  }

  /** Builds a {@link NotificationDispatcher}. */
  public static final class Builder {
    private final NotificationOutbox outbox;
    private final RequestNotifier notifier;
    private Clock clock = Clock.systemUTC();
    private DoubleSupplier jitter = () -> ThreadLocalRandom.current().nextDouble();
    private DeliveryPolicy policy = DeliveryPolicy.DEFAULTS;
    private String owner = "jarvis-host-" + UUID.randomUUID();

    private Builder(NotificationOutbox outbox, RequestNotifier notifier) {
      this.outbox = Objects.requireNonNull(outbox, "outbox");
      this.notifier = Objects.requireNonNull(notifier, "notifier");
    }

    /** The clock of leases, back-offs and ages (the host's). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Jitter in [0, 1) for back-offs (default a thread-local random). */
    public Builder jitter(DoubleSupplier jitter) {
      this.jitter = Objects.requireNonNull(jitter, "jitter");
      return this;
    }

    public Builder policy(DeliveryPolicy policy) {
      this.policy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** The name this instance leases under (default a random one per dispatcher). */
    public Builder owner(String owner) {
      this.owner = Objects.requireNonNull(owner, "owner");
      return this;
    }

    public NotificationDispatcher build() {
      return new NotificationDispatcher(this);
    }
  }
}
