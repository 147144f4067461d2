package dev.jarvis.host;

import java.time.Duration;
import java.util.Objects;

/**
 * How the {@code event-stream} capability's streams and long polls are held (see {@code
 * docs/protocol-decisions.md}, "The event-stream capability"). These are the host's I/O bounds,
 * measured on the JVM's monotonic clock like socket timeouts: none of them decides anything the
 * protocol records, so none reads the host's {@link HostConfig#clock()}.
 *
 * <p>Options, not a value: start from {@link #DEFAULTS} and change what differs with the {@code
 * with…} methods, so that a bound added later breaks no caller.
 */
public final class EventStreamLimits {

  /** The defaults. */
  public static final EventStreamLimits DEFAULTS =
      new EventStreamLimits(
          16,
          2_000,
          Duration.ofSeconds(15),
          Duration.ofMinutes(5),
          Duration.ofHours(1),
          Duration.ofSeconds(10));

  private final int perActor;
  private final int perHost;
  private final Duration heartbeat;
  private final Duration idleTimeout;
  private final Duration maxLifetime;
  private final Duration writeTimeout;

  private EventStreamLimits(
      int perActor,
      int perHost,
      Duration heartbeat,
      Duration idleTimeout,
      Duration maxLifetime,
      Duration writeTimeout) {
    if (perActor < 1 || perHost < 1) {
      throw new IllegalArgumentException("stream limits must be at least 1");
    }
    this.perActor = perActor;
    this.perHost = perHost;
    this.heartbeat = positive(heartbeat, "heartbeat");
    this.idleTimeout = positive(idleTimeout, "idleTimeout");
    this.maxLifetime = positive(maxLifetime, "maxLifetime");
    this.writeTimeout = positive(writeTimeout, "writeTimeout");
  }

  private static Duration positive(Duration d, String name) {
    Objects.requireNonNull(d, name);
    if (d.isZero() || d.isNegative()) {
      throw new IllegalArgumentException("stream durations must be positive: " + name);
    }
    return d;
  }

  /**
   * Streams and waiting long polls one Actor may hold at once (default 16); one more is refused
   * {@code 429} {@code unauthorized_actor}, naming the limit.
   */
  public int perActor() {
    return perActor;
  }

  /**
   * Streams and waiting long polls this host instance holds at once (default 2,000), refused the
   * same way past it.
   */
  public int perHost() {
    return perHost;
  }

  /** How often an idle stream carries a {@code : heartbeat} comment (default 15 s). */
  public Duration heartbeat() {
    return heartbeat;
  }

  /**
   * A stream that carried no event for this long is ended ({@code : end idle}; default 5 min); the
   * client reconnects with {@code Last-Event-ID}.
   */
  public Duration idleTimeout() {
    return idleTimeout;
  }

  /**
   * The longest a stream lives (default 1 h): the checks made when it started (HostAuth,
   * membership) are not older than this ({@code : end expired}).
   */
  public Duration maxLifetime() {
    return maxLifetime;
  }

  /**
   * A write to a subscriber that has not completed within this is a subscriber that stopped
   * reading: its connection is closed (default 10 s), nothing is queued for it.
   */
  public Duration writeTimeout() {
    return writeTimeout;
  }

  /** These limits with another per-Actor and per-host bound. */
  public EventStreamLimits withSubscribers(int perActor, int perHost) {
    return new EventStreamLimits(
        perActor, perHost, heartbeat, idleTimeout, maxLifetime, writeTimeout);
  }

  /** These limits with another heartbeat interval. */
  public EventStreamLimits withHeartbeat(Duration heartbeat) {
    return new EventStreamLimits(
        perActor, perHost, heartbeat, idleTimeout, maxLifetime, writeTimeout);
  }

  /** These limits with another idle timeout. */
  public EventStreamLimits withIdleTimeout(Duration idleTimeout) {
    return new EventStreamLimits(
        perActor, perHost, heartbeat, idleTimeout, maxLifetime, writeTimeout);
  }

  /** These limits with another longest life. */
  public EventStreamLimits withMaxLifetime(Duration maxLifetime) {
    return new EventStreamLimits(
        perActor, perHost, heartbeat, idleTimeout, maxLifetime, writeTimeout);
  }

  /** These limits with another write timeout. */
  public EventStreamLimits withWriteTimeout(Duration writeTimeout) {
    return new EventStreamLimits(
        perActor, perHost, heartbeat, idleTimeout, maxLifetime, writeTimeout);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof EventStreamLimits l
        && perActor == l.perActor
        && perHost == l.perHost
        && heartbeat.equals(l.heartbeat)
        && idleTimeout.equals(l.idleTimeout)
        && maxLifetime.equals(l.maxLifetime)
        && writeTimeout.equals(l.writeTimeout);
  }

  @Override
  public int hashCode() {
    return Objects.hash(perActor, perHost, heartbeat, idleTimeout, maxLifetime, writeTimeout);
  }

  @Override
  public String toString() {
    return "EventStreamLimits[perActor="
        + perActor
        + ", perHost="
        + perHost
        + ", heartbeat="
        + heartbeat
        + ", idleTimeout="
        + idleTimeout
        + ", maxLifetime="
        + maxLifetime
        + ", writeTimeout="
        + writeTimeout
        + "]";
  }
}
