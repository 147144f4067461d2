package dev.jarvis.spring.boot;

import dev.jarvis.host.HostStores;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/** The Jarvis host is up while its store answers ({@link HostStores#ready()}). */
public final class JarvisHostHealthIndicator implements HealthIndicator {

  private final HostStores stores;

  public JarvisHostHealthIndicator(HostStores stores) {
    this.stores = stores;
  }

  @Override
  public Health health() {
    return stores.ready()
        ? Health.up().build()
        : Health.down().withDetail("store", "does not answer").build();
  }
}
