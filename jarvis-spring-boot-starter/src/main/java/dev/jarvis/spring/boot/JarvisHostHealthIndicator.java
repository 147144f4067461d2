package dev.jarvis.spring.boot;

import dev.jarvis.host.HostStores;
import dev.jarvis.host.StoreReadiness;
import java.time.Duration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The Jarvis host is up while its store answers. The store is checked in the background ({@link
 * StoreReadiness}: every second, each check given {@code jarvis.host.store.timeout}), and {@link
 * #health()} answers the last result without touching the store: a check on the servlet thread
 * would hold a Kubernetes probe for as long as the database stalls (a pool's whole connection
 * timeout), so that the probe times out instead of seeing DOWN.
 */
public final class JarvisHostHealthIndicator implements HealthIndicator, AutoCloseable {

  private final StoreReadiness readiness;

  /** Checks {@code stores} now (at most {@code timeout}), then every {@code interval}. */
  public JarvisHostHealthIndicator(HostStores stores, Duration interval, Duration timeout) {
    this.readiness = StoreReadiness.start(stores, interval, timeout);
  }

  /** Checks every second, each check given one second. */
  public JarvisHostHealthIndicator(HostStores stores) {
    this(stores, StoreReadiness.DEFAULT_INTERVAL, StoreReadiness.DEFAULT_TIMEOUT);
  }

  @Override
  public Health health() {
    return readiness.ready()
        ? Health.up().build()
        : Health.down().withDetail("store", "does not answer").build();
  }

  /** Stops the background checks with the context. */
  @Override
  public void close() {
    readiness.close();
  }
}
