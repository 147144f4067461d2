package dev.jarvis.spring.boot;

import dev.jarvis.host.IdempotencyPurge;
import dev.jarvis.host.ProtocolHost;
import java.time.Duration;
import java.util.Objects;
import org.springframework.context.SmartLifecycle;

/**
 * The host kit's {@link IdempotencyPurge} as a Spring lifecycle: idempotency records past {@code
 * jarvis.host.idempotency-retention} are deleted every {@code
 * jarvis.host.idempotency-purge-interval} from the context's start to its stop, as the reference
 * host does; without it a JDBC store's idempotency table grows for as long as the service runs.
 */
public final class JarvisIdempotencyPurge implements SmartLifecycle {

  /**
   * Starts runs of a purge at an interval ({@link IdempotencyPurge#every} unless a test drives it).
   */
  @FunctionalInterface
  public interface Schedule {
    IdempotencyPurge.Running start(IdempotencyPurge purge, Duration interval);
  }

  private final IdempotencyPurge purge;
  private final Duration interval;
  private final Schedule schedule;
  private IdempotencyPurge.Running running;

  public JarvisIdempotencyPurge(ProtocolHost host, Duration interval, Schedule schedule) {
    this.purge = new IdempotencyPurge(host);
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException(
          "jarvis.host.idempotency-purge-interval must be positive: " + interval);
    }
    this.interval = interval;
    this.schedule = Objects.requireNonNull(schedule, "schedule");
  }

  /** One run now: the records deleted (none when the store failed, logged). */
  long purgeNow() {
    return purge.runOnce();
  }

  @Override
  public synchronized void start() {
    if (running == null) {
      running = schedule.start(purge, interval);
    }
  }

  @Override
  public synchronized void stop() {
    if (running != null) {
      running.close();
      running = null;
    }
  }

  @Override
  public synchronized boolean isRunning() {
    return running != null;
  }
}
