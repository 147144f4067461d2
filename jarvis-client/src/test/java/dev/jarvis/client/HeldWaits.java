package dev.jarvis.client;

import static org.junit.jupiter.api.Assertions.fail;

import dev.jarvis.testkit.StubClock;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A {@link Sleeper} that never sleeps: each asynchronous wait is held until the test lets it pass,
 * and passing it moves the shared {@link StubClock} by the wait's length. So a test acts "while the
 * agent waits" at an exact point (between two reads), and time passes only when the test says so.
 * In {@link #passAll} mode every wait passes at once, the clock moved by it. A blocking wait (a
 * blocking call's retry) only moves the clock.
 */
final class HeldWaits implements Sleeper {

  /** One held wait. */
  record Wait(Duration duration, CompletableFuture<Void> done, StubClock clock) {
    /** Lets it pass: the clock moves by its length, and the waiter goes on on this thread. */
    void pass() {
      clock.advance(duration);
      done.complete(null);
    }
  }

  private final StubClock clock;
  private final BlockingQueue<Wait> held = new LinkedBlockingQueue<>();
  private final AtomicInteger count = new AtomicInteger();
  private boolean passAll;

  HeldWaits(StubClock clock) {
    this.clock = clock;
  }

  @Override
  public void sleep(Duration duration) {
    count.incrementAndGet();
    clock.advance(duration);
  }

  @Override
  public synchronized CompletableFuture<Void> delay(Duration duration, Executor executor) {
    count.incrementAndGet();
    if (passAll) {
      // On the executor, as a real timer resumes: a long run of waits never deepens a stack.
      return CompletableFuture.runAsync(() -> clock.advance(duration), executor);
    }
    Wait wait = new Wait(duration, new CompletableFuture<>(), clock);
    held.add(wait);
    return wait.done();
  }

  /**
   * The next wait the code under test starts. Waits for it to get there (bounded: a test that never
   * gets there fails rather than hangs); nothing sleeps for a fixed time.
   */
  Wait next() {
    try {
      Wait wait = held.poll(20, TimeUnit.SECONDS);
      if (wait == null) {
        fail("the code under test never started a wait");
      }
      return wait;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** From now on every wait passes at once; the ones held pass now. */
  synchronized void passAll() {
    passAll = true;
    for (Wait wait = held.poll(); wait != null; wait = held.poll()) {
      wait.pass();
    }
  }

  /** Waits held and not passed. */
  int heldNow() {
    return held.size();
  }

  /** Waits started so far, blocking or not. */
  int count() {
    return count.get();
  }
}
