package dev.jarvis.host.internal;

import dev.jarvis.host.AppendListener;
import dev.jarvis.host.EventStreamLimits;
import dev.jarvis.host.HostStores;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Who waits for which WorkSession's next event, on this host instance: the streams and long polls
 * of the {@code event-stream} capability register a {@link Waiter} and are woken when an append may
 * have happened, from this instance's own commits and from the store's {@link
 * HostStores#listenForAppends} (other instances). A wake-up is a hint: the woken read their events
 * from the store by sequence, so nothing is queued here and a subscriber that stops reading holds
 * nothing but its place. Also holds the subscriber limits and the watchdog that cuts a stalled
 * write.
 */
public final class LiveEvents implements AppendListener, AutoCloseable {

  private final HostStores stores;
  private final EventStreamLimits limits;
  private final Map<String, Set<Waiter>> waiters = new ConcurrentHashMap<>();
  // Waiters for an append to any WorkSession (the request-inbox long poll, whose Requests may come
  // from any of them).
  private final Set<Waiter> anyWaiters = ConcurrentHashMap.newKeySet();
  private final Map<String, AtomicInteger> perActor = new ConcurrentHashMap<>();
  private final AtomicInteger held = new AtomicInteger();
  private final Set<Writer> writers = ConcurrentHashMap.newKeySet();
  private volatile boolean closed;
  private AutoCloseable listening;
  private ScheduledExecutorService watchdog;

  public LiveEvents(HostStores stores, EventStreamLimits limits) {
    this.stores = stores;
    this.limits = limits;
  }

  /** The limits streams are held to. */
  public EventStreamLimits limits() {
    return limits;
  }

  /** Whether the host is closing: every stream ends, no new one starts. */
  public boolean closed() {
    return closed;
  }

  @Override
  public void appended(String workSessionId) {
    Set<Waiter> set = waiters.get(workSessionId);
    if (set != null) {
      set.forEach(Waiter::wake);
    }
    anyWaiters.forEach(Waiter::wake);
  }

  @Override
  public void mayHaveMissed() {
    waiters.values().forEach(set -> set.forEach(Waiter::wake));
    anyWaiters.forEach(Waiter::wake);
  }

  /**
   * A place for one more stream or long poll of {@code actorId}, or the limit it would pass (its
   * reason, for the refusal).
   */
  public Slot acquire(String actorId) throws LimitReached {
    if (closed) {
      throw new LimitReached("The host is shutting down; reconnect to another instance.");
    }
    if (held.incrementAndGet() > limits.perHost()) {
      held.decrementAndGet();
      throw new LimitReached(
          "This host holds as many event streams and long polls as it serves ("
              + limits.perHost()
              + "); retry later.");
    }
    AtomicInteger mine = perActor.computeIfAbsent(actorId, id -> new AtomicInteger());
    if (mine.incrementAndGet() > limits.perActor()) {
      mine.decrementAndGet();
      held.decrementAndGet();
      throw new LimitReached(
          "This Actor holds as many event streams and long polls as one Actor may ("
              + limits.perActor()
              + "); close one first.");
    }
    startListening();
    return new Slot(actorId);
  }

  /** Registers a waiter for {@code workSessionId}; close it to leave. */
  public Waiter waiter(String workSessionId) {
    Waiter waiter = new Waiter(workSessionId);
    // compute, not computeIfAbsent then add: a leaving waiter may be removing the set right now.
    waiters.compute(
        workSessionId,
        (id, set) -> {
          Set<Waiter> live = set == null ? ConcurrentHashMap.newKeySet() : set;
          live.add(waiter);
          return live;
        });
    if (closed) {
      waiter.wake();
    }
    return waiter;
  }

  /** Registers a waiter woken by an append to any WorkSession; close it to leave. */
  public Waiter waiterForAny() {
    Waiter waiter = new Waiter(null);
    anyWaiters.add(waiter);
    if (closed) {
      waiter.wake();
    }
    return waiter;
  }

  /** Watches a stream's writes: one that stalls past the write timeout is aborted. */
  public Writer writer(Runnable abort) {
    Writer writer = new Writer(abort);
    writers.add(writer);
    synchronized (this) {
      if (watchdog == null && !closed) {
        watchdog =
            Executors.newSingleThreadScheduledExecutor(
                r -> {
                  Thread t = new Thread(r, "jarvis-event-stream-watchdog");
                  t.setDaemon(true);
                  return t;
                });
        long period = Math.max(1, limits.writeTimeout().toMillis() / 4);
        watchdog.scheduleWithFixedDelay(this::cutStalled, period, period, TimeUnit.MILLISECONDS);
      }
    }
    return writer;
  }

  private void cutStalled() {
    long now = System.nanoTime();
    long bound = limits.writeTimeout().toNanos();
    for (Writer w : writers) {
      long since = w.writingSince;
      if (since != 0 && now - since > bound) {
        w.abort();
      }
    }
  }

  private synchronized void startListening() {
    if (listening == null && !closed) {
      listening = stores.listenForAppends(this);
    }
  }

  /**
   * Ends every stream and long poll: each is woken and ends cleanly; after {@code grace}, those
   * still writing (a subscriber that does not read) are aborted. Stops listening to the store.
   */
  public void close(java.time.Duration grace) {
    closed = true;
    mayHaveMissed();
    long deadline = System.nanoTime() + grace.toNanos();
    synchronized (this) {
      while (held.get() > 0 && System.nanoTime() < deadline) {
        try {
          wait(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
      writers.forEach(Writer::abort);
      if (watchdog != null) {
        watchdog.shutdownNow();
      }
      if (listening != null) {
        try {
          listening.close();
        } catch (Exception ignored) {
          // Stopping a listener that failed already: nothing left to stop.
        }
      }
    }
  }

  @Override
  public void close() {
    close(java.time.Duration.ofSeconds(1));
  }

  /** Streams and long polls held now. */
  public int held() {
    return held.get();
  }

  /** A place held by one stream or long poll; closing it gives it back, once. */
  public final class Slot implements AutoCloseable {
    private final String actorId;
    private boolean released;

    private Slot(String actorId) {
      this.actorId = actorId;
    }

    @Override
    public void close() {
      synchronized (this) {
        if (released) {
          return;
        }
        released = true;
      }
      AtomicInteger mine = perActor.get(actorId);
      if (mine != null && mine.decrementAndGet() <= 0) {
        perActor.remove(actorId, mine);
      }
      held.decrementAndGet();
      synchronized (LiveEvents.this) {
        LiveEvents.this.notifyAll();
      }
    }
  }

  /** A limit one more stream would pass. */
  public static final class LimitReached extends Exception {
    private static final long serialVersionUID = 1L;

    LimitReached(String reason) {
      super(reason, null, false, false);
    }
  }

  /** One stream's or long poll's wait for its WorkSession's next append (any's: none named). */
  public final class Waiter implements AutoCloseable {
    private final String workSessionId;
    private boolean pending;

    private Waiter(String workSessionId) {
      this.workSessionId = workSessionId;
    }

    synchronized void wake() {
      pending = true;
      notifyAll();
    }

    /**
     * Waits until woken or {@code nanos} pass; answers whether it was woken. A wake-up that came
     * before the wait counts, so one between a read and this wait is never lost.
     */
    public synchronized boolean await(long nanos) {
      long deadline = System.nanoTime() + nanos;
      while (!pending) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        try {
          TimeUnit.NANOSECONDS.timedWait(this, left);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return true;
        }
      }
      pending = false;
      return true;
    }

    @Override
    public void close() {
      if (workSessionId == null) {
        anyWaiters.remove(this);
        return;
      }
      waiters.computeIfPresent(
          workSessionId,
          (id, set) -> {
            set.remove(this);
            return set.isEmpty() ? null : set;
          });
    }
  }

  /** One stream's writes, as the watchdog sees them. */
  public final class Writer implements AutoCloseable {
    private final Runnable abort;
    private volatile long writingSince;
    private volatile boolean aborted;

    private Writer(Runnable abort) {
      this.abort = abort;
    }

    /** A write starts. */
    public void writing() {
      long now = System.nanoTime();
      writingSince = now == 0 ? 1 : now;
    }

    /** The write completed. */
    public void written() {
      writingSince = 0;
    }

    /** Whether the connection was cut (a stalled write, or the host closing). */
    public boolean aborted() {
      return aborted;
    }

    void abort() {
      if (!aborted) {
        aborted = true;
        try {
          abort.run();
        } catch (RuntimeException ignored) {
          // The connection is gone either way.
        }
      }
    }

    @Override
    public void close() {
      writers.remove(this);
    }
  }
}
