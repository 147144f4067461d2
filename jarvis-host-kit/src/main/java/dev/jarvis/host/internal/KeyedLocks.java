package dev.jarvis.host.internal;

import dev.jarvis.host.StoreUnavailableException;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * One lock per key (a WorkSession id, an idempotency scope), so that work on one key is serialised
 * while other keys proceed. A lock is dropped again when nobody holds or waits for it.
 *
 * <p>A request waits for a key's lock at most {@link #DEFAULT_WAIT}: the holder may itself be
 * waiting on a store that stalls (each of its waits bounded), and requests queued behind it would
 * otherwise each add the holder's wait to theirs. Past the bound the request is a {@link
 * StoreUnavailableException}, answered 503 with {@code Retry-After}; nothing of it was written.
 *
 * @param <K> the key
 */
final class KeyedLocks<K> {

  /**
   * How long a request waits for a key's lock: past the longest a holder waits on the store with
   * the JDBC store's defaults (pool wait 2 s, then a statement of at most 5 s), so that only a
   * queue behind a stalled store reaches it.
   */
  static final Duration DEFAULT_WAIT = Duration.ofSeconds(10);

  private static final class Entry {
    final ReentrantLock lock = new ReentrantLock();
    int users;
  }

  private final ConcurrentHashMap<K, Entry> locks = new ConcurrentHashMap<>();
  private final Duration wait;

  KeyedLocks() {
    this(DEFAULT_WAIT);
  }

  KeyedLocks(Duration wait) {
    this.wait = wait;
  }

  /** How many keys have a lock now: those held or waited for, as nothing else is kept. */
  int size() {
    return locks.size();
  }

  /** Runs {@code work} holding the lock of {@code key}. */
  <T> T with(K key, Supplier<T> work) {
    Entry entry =
        locks.compute(
            key,
            (k, e) -> {
              Entry held = e == null ? new Entry() : e;
              held.users++;
              return held;
            });
    boolean held;
    try {
      held = entry.lock.tryLock(wait.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      release(key);
      throw new StoreUnavailableException("interrupted while waiting for the lock of " + key, e);
    }
    if (!held) {
      release(key);
      throw new StoreUnavailableException(
          "waited "
              + wait.toMillis()
              + " ms for the lock of "
              + key
              + " (a request ahead of it"
              + " waits on the store)",
          null);
    }
    try {
      return work.get();
    } finally {
      entry.lock.unlock();
      release(key);
    }
  }

  private void release(K key) {
    locks.compute(key, (k, e) -> --e.users == 0 ? null : e);
  }
}
