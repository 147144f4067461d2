package dev.jarvis.host.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.host.StoreUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Per-key locks are per-request state: none outlives the requests that use it. */
class KeyedLocksTest {

  private final KeyedLocks<String> locks = new KeyedLocks<>();

  @Test
  void aLockIsKeptOnlyWhileSomeoneHoldsIt() {
    int inside =
        locks.with("ws-1", () -> locks.with("ws-2", () -> locks.with("ws-1", locks::size)));
    assertEquals(2, inside);
    assertEquals(0, locks.size());
  }

  @Test
  void aLockWhoseWorkFailedIsDroppedToo() {
    assertThrows(
        IllegalStateException.class,
        () ->
            locks.with(
                "ws-1",
                () -> {
                  throw new IllegalStateException("refused");
                }));
    assertEquals(0, locks.size());
  }

  @Test
  void aRequestQueuedBehindAHolderLongerThanTheBoundIsAStoreFaultAndLeavesNoLock()
      throws Exception {
    KeyedLocks<String> bounded = new KeyedLocks<>(Duration.ofMillis(200));
    CountDownLatch holding = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService holder = Executors.newSingleThreadExecutor();
    try {
      Future<Integer> held =
          holder.submit(
              () ->
                  bounded.with(
                      "ws-1",
                      () -> {
                        holding.countDown();
                        try {
                          release.await(30, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                          Thread.currentThread().interrupt();
                        }
                        return 1;
                      }));
      assertTrue(holding.await(30, TimeUnit.SECONDS));
      assertThrows(StoreUnavailableException.class, () -> bounded.with("ws-1", () -> 2));
      assertEquals(3, bounded.with("ws-2", () -> 3), "other keys proceed");
      release.countDown();
      assertEquals(1, held.get(30, TimeUnit.SECONDS));
    } finally {
      holder.shutdownNow();
    }
    assertEquals(0, bounded.size());
  }

  @Test
  void threadsContendingForManyKeysAreSerialisedPerKeyAndLeaveNoLockBehind() throws Exception {
    int threads = 8;
    int uses = 2_000;
    int keys = 16;
    int[] counters = new int[keys];
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CyclicBarrier start = new CyclicBarrier(threads);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int offset = t;
        done.add(
            pool.submit(
                () -> {
                  start.await(30, TimeUnit.SECONDS);
                  for (int i = 0; i < uses; i++) {
                    int key = (i + offset) % keys;
                    // Not atomic on purpose: only the key's lock keeps the count right.
                    locks.with("ws-" + key, () -> counters[key]++);
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    int total = 0;
    for (int count : counters) {
      total += count;
    }
    assertEquals(threads * uses, total);
    assertEquals(0, locks.size());
  }
}
