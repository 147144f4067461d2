package dev.jarvis.client;

import java.time.Duration;

/** Waits between retry attempts. Tests inject one that records the wait instead of sleeping. */
@FunctionalInterface
public interface Sleeper {

  /** The real one: {@link Thread#sleep(long)}. */
  Sleeper SYSTEM = duration -> Thread.sleep(duration.toMillis());

  void sleep(Duration duration) throws InterruptedException;
}
