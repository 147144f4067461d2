package dev.jarvis.host;

import java.time.Duration;
import java.util.Objects;

/**
 * How the {@code event-stream} capability's streams and long polls are held (see {@code
 * docs/protocol-decisions.md}, "The event-stream capability"). These are the host's I/O bounds,
 * measured on the JVM's monotonic clock like socket timeouts: none of them decides anything the
 * protocol records, so none reads the host's {@link HostConfig#clock()}.
 *
 * @param perActor streams and waiting long polls one Actor may hold at once (default 16); one more
 *     is refused {@code 429} {@code unauthorized_actor}, naming the limit
 * @param perHost streams and waiting long polls this host instance holds at once (default 2,000),
 *     refused the same way past it
 * @param heartbeat how often an idle stream carries a {@code : heartbeat} comment (default 15 s)
 * @param idleTimeout a stream that carried no event for this long is ended ({@code : end idle};
 *     default 5 min); the client reconnects with {@code Last-Event-ID}
 * @param maxLifetime the longest a stream lives (default 1 h): the checks made when it started
 *     (HostAuth, membership) are not older than this ({@code : end expired})
 * @param writeTimeout a write to a subscriber that has not completed within this is a subscriber
 *     that stopped reading: its connection is closed (default 10 s), nothing is queued for it
 */
public record EventStreamLimits(
    int perActor,
    int perHost,
    Duration heartbeat,
    Duration idleTimeout,
    Duration maxLifetime,
    Duration writeTimeout) {

  /** The defaults. */
  public static final EventStreamLimits DEFAULTS =
      new EventStreamLimits(
          16,
          2_000,
          Duration.ofSeconds(15),
          Duration.ofMinutes(5),
          Duration.ofHours(1),
          Duration.ofSeconds(10));

  public EventStreamLimits {
    if (perActor < 1 || perHost < 1) {
      throw new IllegalArgumentException("stream limits must be at least 1");
    }
    for (Duration d :
        new Duration[] {
          Objects.requireNonNull(heartbeat, "heartbeat"),
          Objects.requireNonNull(idleTimeout, "idleTimeout"),
          Objects.requireNonNull(maxLifetime, "maxLifetime"),
          Objects.requireNonNull(writeTimeout, "writeTimeout")
        }) {
      if (d.isZero() || d.isNegative()) {
        throw new IllegalArgumentException("stream durations must be positive");
      }
    }
  }

  /** These limits with another per-Actor and per-host bound. */
  public EventStreamLimits withSubscribers(int perActor, int perHost) {
    return new EventStreamLimits(
        perActor, perHost, heartbeat, idleTimeout, maxLifetime, writeTimeout);
  }

  /** These limits with other timings. */
  public EventStreamLimits withTimings(
      Duration heartbeat, Duration idleTimeout, Duration maxLifetime, Duration writeTimeout) {
    return new EventStreamLimits(
        perActor, perHost, heartbeat, idleTimeout, maxLifetime, writeTimeout);
  }
}
