package dev.jarvis.store.tck;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * Starts tasks at the same moment, released by one barrier, instead of hoping a sleep lines them
 * up; for the contract's race checks. The suite's own machinery, not API: a store's or a host's
 * tests get the same helper from the TCK's test jar ({@code dev.jarvis.store.tck.testing}).
 */
final class Together {

  private Together() {}

  /**
   * Runs {@code tasks} on {@code pool} (which needs a thread for each), all released at once, and
   * answers their results in order.
   */
  static <T> List<T> run(ExecutorService pool, List<Callable<T>> tasks) throws Exception {
    CyclicBarrier start = new CyclicBarrier(tasks.size());
    List<Future<T>> futures = new ArrayList<>();
    for (Callable<T> task : tasks) {
      futures.add(
          pool.submit(
              () -> {
                start.await(30, TimeUnit.SECONDS);
                return task.call();
              }));
    }
    List<T> results = new ArrayList<>();
    for (Future<T> future : futures) {
      results.add(future.get(120, TimeUnit.SECONDS));
    }
    return results;
  }
}
