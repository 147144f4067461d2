package dev.jarvis.client;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Waits between retry attempts. Tests inject one that records the wait and moves a test clock
 * instead of sleeping.
 */
@FunctionalInterface
public interface Sleeper {

  /**
   * The real one: {@link Thread#sleep(long)} in a blocking call; in an asynchronous call a timer
   * that holds no thread and resumes on the client's executor.
   */
  Sleeper SYSTEM =
      new Sleeper() {
        @Override
        public void sleep(Duration duration) throws InterruptedException {
          Thread.sleep(duration.toMillis());
        }

        @Override
        public CompletableFuture<Void> delay(Duration duration, Executor executor) {
          return CompletableFuture.runAsync(
              () -> {},
              CompletableFuture.delayedExecutor(
                  duration.toNanos(), TimeUnit.NANOSECONDS, executor));
        }

        @Override
        public String toString() {
          return "Sleeper.SYSTEM";
        }
      };

  /** Blocks the calling thread for {@code duration}: the wait of a blocking call. */
  void sleep(Duration duration) throws InterruptedException;

  /**
   * Completes after {@code duration} without blocking the caller: the wait of an asynchronous call,
   * which continues on {@code executor}. The default runs {@link #sleep} on {@code executor}, which
   * suits a sleeper that returns at once (as tests' do); one that really waits should override this
   * with a timer, as {@link #SYSTEM} does.
   */
  default CompletableFuture<Void> delay(Duration duration, Executor executor) {
    return CompletableFuture.runAsync(
        () -> {
          try {
            sleep(duration);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CompletionException(e);
          }
        },
        executor);
  }
}
