package dev.jarvis.host.internal;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * One lock per key (a WorkSession id, an idempotency scope), so that work on one key is serialised
 * while other keys proceed. A lock is dropped again when nobody holds or waits for it.
 *
 * @param <K> the key
 */
final class KeyedLocks<K> {

  private static final class Entry {
    final ReentrantLock lock = new ReentrantLock();
    int users;
  }

  private final ConcurrentHashMap<K, Entry> locks = new ConcurrentHashMap<>();

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
    entry.lock.lock();
    try {
      return work.get();
    } finally {
      entry.lock.unlock();
      locks.compute(key, (k, e) -> --e.users == 0 ? null : e);
    }
  }
}
