package dev.jarvis.host.internal;

import dev.jarvis.host.AppendListener;
import dev.jarvis.host.EventStreamLimits;
import dev.jarvis.host.HostStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Who watches which WorkSession's next event, on this host instance: the streams and long polls of
 * the {@code event-stream} capability register a {@link Watch} and are woken when an append may
 * have happened, from this instance's own commits and from the store's {@link
 * HostStores#listenForAppends} (other instances). A wake-up is a hint: the woken read their events
 * from the store by sequence, so nothing is queued here and a subscriber that stops reading holds
 * nothing but its place.
 *
 * <p>Nothing waits on a thread of its own: a watch is an object woken by an append, its deadlines
 * (heartbeat, idle timeout, longest life, a write's timeout) are looked at on one shared {@link
 * #tick(EventStreamLimits) tick} (a long poll's wait is a task on the same timer thread), and what
 * it does when woken (read the next batch, hand it to a non-blocking write) runs on a small shared
 * {@link #execute pool} whose threads end when idle. Also holds the subscriber limits.
 */
public final class LiveEvents implements AppendListener, AutoCloseable {

  /** Readers: enough to read and hand on batches in parallel, never one per stream. */
  private static final int READERS = Math.max(2, Runtime.getRuntime().availableProcessors());

  private final HostStores stores;
  private final EventStreamLimits limits;
  private final Map<String, Set<Watch>> watches = new ConcurrentHashMap<>();
  private final Set<Watch> open = ConcurrentHashMap.newKeySet();
  // Watches of an append to any WorkSession (the request-inbox long poll, whose Requests may come
  // from any of them).
  private final Set<Watch> anyWatches = ConcurrentHashMap.newKeySet();
  private final Map<String, AtomicInteger> perActor = new ConcurrentHashMap<>();
  private final AtomicInteger held = new AtomicInteger();
  // What has deadlines (each stream's heartbeat, idle timeout, longest life, write timeout): looked
  // at on one shared tick rather than a timer task per deadline, so a heartbeat costs its write and
  // no scheduling, and the streams due on a tick are stepped together on one pooled thread.
  private final Set<Timed> timed = ConcurrentHashMap.newKeySet();
  private final long tickNanos;
  private volatile boolean closed;
  private AutoCloseable listening;
  private ScheduledThreadPoolExecutor timer;
  private ThreadPoolExecutor readers;

  public LiveEvents(HostStores stores, EventStreamLimits limits) {
    this.stores = stores;
    this.limits = limits;
    this.tickNanos = tick(limits).toNanos();
  }

  /**
   * How often deadlines are looked at: a tenth of the shortest of the limits' timings, at most a
   * second and at least a millisecond. A deadline is met within one tick of its time (the defaults:
   * within a second of a 15 s heartbeat or a 10 s write timeout).
   */
  public static Duration tick(EventStreamLimits limits) {
    Duration shortest =
        java.util.stream.Stream.of(
                limits.heartbeat(),
                limits.idleTimeout(),
                limits.maxLifetime(),
                limits.writeTimeout())
            .min(Duration::compareTo)
            .orElseThrow()
            .dividedBy(10);
    Duration second = Duration.ofSeconds(1);
    Duration milli = Duration.ofMillis(1);
    return shortest.compareTo(second) > 0
        ? second
        : shortest.compareTo(milli) < 0 ? milli : shortest;
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
    Set<Watch> set = watches.get(workSessionId);
    if (set != null) {
      set.forEach(Watch::wake);
    }
    anyWatches.forEach(Watch::wake);
  }

  @Override
  public void mayHaveMissed() {
    open.forEach(Watch::wake);
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
    start();
    return new Slot(actorId);
  }

  /**
   * Watches {@code workSessionId}: {@code wake} runs (on the appending thread: it must return at
   * once) whenever an append may have happened, and when the host closes; {@code cut} when the host
   * closes and the watcher has not ended within the grace. Close the watch to leave.
   */
  public Watch watch(String workSessionId, Runnable wake, Runnable cut) {
    Watch watch = new Watch(workSessionId, wake, cut);
    open.add(watch);
    // compute, not computeIfAbsent then add: a leaving watch may be removing the set right now.
    watches.compute(
        workSessionId,
        (id, set) -> {
          Set<Watch> live = set == null ? ConcurrentHashMap.newKeySet() : set;
          live.add(watch);
          return live;
        });
    if (closed) {
      watch.wake();
    }
    return watch;
  }

  /** As {@link #watch}, woken by an append to any WorkSession. */
  public Watch watchAny(Runnable wake, Runnable cut) {
    Watch watch = new Watch(null, wake, cut);
    open.add(watch);
    anyWatches.add(watch);
    if (closed) {
      watch.wake();
    }
    return watch;
  }

  /**
   * Runs {@code task} on the shared pool (a read of the store and a hand-off to a non-blocking
   * write; never a wait), or here once the host has closed the pool.
   */
  public void execute(Runnable task) {
    ThreadPoolExecutor pool;
    synchronized (this) {
      pool = readers;
    }
    try {
      if (pool == null) {
        throw new RejectedExecutionException("closed");
      }
      pool.execute(task);
    } catch (RejectedExecutionException closedPool) {
      task.run();
    }
  }

  /**
   * Looks at {@code t}'s deadline on every tick until the returned action is run: when {@link
   * Timed#due} says it is due, {@link Timed#runDue} runs on the shared pool, with the others due on
   * the same tick.
   */
  public Runnable track(Timed t) {
    timed.add(t);
    return () -> timed.remove(t);
  }

  private void tick() {
    long now = System.nanoTime();
    List<Timed> due = null;
    for (Timed t : timed) {
      if (t.due(now)) {
        if (due == null) {
          due = new ArrayList<>();
        }
        due.add(t);
      }
    }
    if (due != null) {
      List<Timed> batch = due;
      execute(() -> batch.forEach(Timed::runDue));
    }
  }

  /**
   * Runs {@code task} on the shared timer after {@code nanos}; empty once the host has closed it
   * (the host then ends every watcher itself).
   */
  public java.util.Optional<ScheduledFuture<?>> schedule(Runnable task, long nanos) {
    ScheduledThreadPoolExecutor t;
    synchronized (this) {
      t = timer;
    }
    if (t == null) {
      return java.util.Optional.empty();
    }
    try {
      return java.util.Optional.of(t.schedule(task, Math.max(0, nanos), TimeUnit.NANOSECONDS));
    } catch (RejectedExecutionException closedTimer) {
      return java.util.Optional.empty();
    }
  }

  private synchronized void start() {
    if (closed) {
      return;
    }
    if (listening == null) {
      listening = stores.listenForAppends(this);
    }
    if (timer == null) {
      timer = new ScheduledThreadPoolExecutor(1, daemon("jarvis-event-stream-timer"));
      // A long poll answered before its wait must not leave its cancelled task behind.
      timer.setRemoveOnCancelPolicy(true);
      timer.scheduleWithFixedDelay(this::tick, tickNanos, tickNanos, TimeUnit.NANOSECONDS);
      readers =
          new ThreadPoolExecutor(
              READERS,
              READERS,
              30,
              TimeUnit.SECONDS,
              new LinkedBlockingQueue<>(),
              daemon("jarvis-event-stream-reader"));
      // Idle streams cost no reader thread: they end after 30 s without work.
      readers.allowCoreThreadTimeOut(true);
    }
  }

  private static ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }

  /**
   * Ends every stream and long poll: each is woken and ends cleanly; after {@code grace}, those
   * still open (a subscriber that does not read) are cut. Stops listening to the store.
   */
  public void close(Duration grace) {
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
    }
    open.forEach(Watch::cut);
    synchronized (this) {
      if (timer != null) {
        timer.shutdownNow();
        // Queued reads still run: each ends a stream just cut.
        readers.shutdown();
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
    close(Duration.ofSeconds(1));
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

  /** Something with a deadline looked at on the shared tick. */
  public interface Timed {
    /**
     * Whether its deadline has passed at {@code now} ({@link System#nanoTime}); cheap, any thread.
     */
    boolean due(long now);

    /** Acts on the passed deadline, on a pooled thread; it must not wait. */
    void runDue();
  }

  /** A limit one more stream would pass. */
  public static final class LimitReached extends Exception {
    private static final long serialVersionUID = 1L;

    LimitReached(String reason) {
      super(reason, null, false, false);
    }
  }

  /** One stream's or long poll's watch on its WorkSession's appends (any's: none named). */
  public final class Watch implements AutoCloseable {
    private final String workSessionId;
    private final Runnable wake;
    private final Runnable cut;

    private Watch(String workSessionId, Runnable wake, Runnable cut) {
      this.workSessionId = workSessionId;
      this.wake = wake;
      this.cut = cut;
    }

    void wake() {
      wake.run();
    }

    void cut() {
      cut.run();
    }

    @Override
    public void close() {
      open.remove(this);
      if (workSessionId == null) {
        anyWatches.remove(this);
        return;
      }
      watches.computeIfPresent(
          workSessionId,
          (id, set) -> {
            set.remove(this);
            return set.isEmpty() ? null : set;
          });
    }
  }
}
