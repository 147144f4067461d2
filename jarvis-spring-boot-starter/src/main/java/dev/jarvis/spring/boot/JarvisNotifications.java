package dev.jarvis.spring.boot;

import dev.jarvis.host.notify.NotificationDispatcher;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.springframework.context.SmartLifecycle;

/**
 * This instance's notification dispatcher as a Spring lifecycle, as {@link JarvisLiveLoop} runs the
 * expiry sweep: it sends the due notifications every {@code jarvis.host.notifications.interval}
 * while the service runs, and stops before the web server drains (a delivery in progress finishes;
 * what was leased and not attempted is sent again after its lease, by this instance or another).
 * Without a notifier it does nothing.
 */
public final class JarvisNotifications implements SmartLifecycle {

  private final Optional<NotificationDispatcher> dispatcher;
  private final Duration interval;
  private NotificationDispatcher.Running running;

  public JarvisNotifications(Optional<NotificationDispatcher> dispatcher, Duration interval) {
    this.dispatcher = Objects.requireNonNull(dispatcher, "dispatcher");
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException(
          "jarvis.host.notifications.interval must be positive: " + interval);
    }
    this.interval = interval;
  }

  /** The dispatcher, when notifications are on: {@code dispatchNow()} sends what is due now. */
  public Optional<NotificationDispatcher> dispatcher() {
    return dispatcher;
  }

  @Override
  public synchronized void start() {
    if (running == null && dispatcher.isPresent()) {
      running = dispatcher.get().every(interval);
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

  @Override
  public int getPhase() {
    return Integer.MAX_VALUE;
  }
}
