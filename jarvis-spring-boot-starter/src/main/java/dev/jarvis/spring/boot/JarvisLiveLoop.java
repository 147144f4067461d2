package dev.jarvis.spring.boot;

import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.RequestExpirySweep;
import java.time.Duration;
import java.util.Objects;
import org.springframework.context.SmartLifecycle;

/**
 * What keeps the loop between agent and human live in a service, as a Spring lifecycle: Requests
 * past their {@code expires_at} are written expired every {@code
 * jarvis.host.request-expiry-interval} ({@link RequestExpirySweep}), so an agent waiting on one is
 * told; and on shutdown the host's event streams and long polls end cleanly ({@code : end
 * shutdown}) before the web server's graceful drain, which they would otherwise hold for its whole
 * timeout. Its phase is the last to start and the first to stop.
 */
public final class JarvisLiveLoop implements SmartLifecycle {

  /** How long stopping lets streams end cleanly before it cuts those that do not read. */
  static final Duration STREAM_GRACE = Duration.ofSeconds(1);

  private final ProtocolHost host;
  private final RequestExpirySweep sweep;
  private final Duration interval;
  private RequestExpirySweep.Running running;

  public JarvisLiveLoop(ProtocolHost host, Duration interval) {
    this.host = Objects.requireNonNull(host, "host");
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException(
          "jarvis.host.request-expiry-interval must be positive: " + interval);
    }
    this.sweep = new RequestExpirySweep(host);
    this.interval = interval;
  }

  @Override
  public synchronized void start() {
    if (running == null) {
      running = sweep.every(interval);
    }
  }

  @Override
  public synchronized void stop() {
    if (running != null) {
      running.close();
      running = null;
    }
    host.closeStreams(STREAM_GRACE);
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
