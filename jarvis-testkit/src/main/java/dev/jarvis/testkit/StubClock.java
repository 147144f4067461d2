package dev.jarvis.testkit;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that moves only when a test moves it, safe to read from the stub's and the client's
 * threads at once. Give the same one to the stub ({@code JarvisHostStub.builder().clock(clock)})
 * and to the code under test (a client's {@code clock} option): the stub refuses request timestamps
 * more than 300 s off its own clock, and {@link StubHuman#letExpire} moves it past a Request's
 * {@code expires_at}. A client's {@code Sleeper} that calls {@link #advance} instead of sleeping
 * makes its waits take no time.
 */
public final class StubClock extends Clock {

  private final AtomicReference<Instant> now;

  private StubClock(Instant start) {
    this.now = new AtomicReference<>(Objects.requireNonNull(start, "start"));
  }

  /** A clock standing at {@code start}, in UTC. */
  public static StubClock at(Instant start) {
    return new StubClock(start);
  }

  /** A clock standing at {@code start} (RFC 3339, {@code 2026-06-12T18:00:00Z}). */
  public static StubClock at(String start) {
    return at(Instant.parse(start));
  }

  /** Moves the clock forward by {@code duration}; answers the new time. */
  public Instant advance(Duration duration) {
    if (duration.isNegative()) {
      throw new IllegalArgumentException("a clock moves forward only: " + duration);
    }
    return now.updateAndGet(t -> t.plus(duration));
  }

  /** Moves the clock to {@code instant}, if that is later; answers the time now. */
  public Instant advanceTo(Instant instant) {
    return now.updateAndGet(t -> instant.isAfter(t) ? instant : t);
  }

  @Override
  public Instant instant() {
    return now.get();
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  /** This clock: it keeps UTC, and a copy in another zone would stop moving with it. */
  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public String toString() {
    return "StubClock[" + now.get() + "]";
  }
}
