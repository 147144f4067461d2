package dev.jarvis.host;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.eventlog.EventStream;
import dev.jarvis.host.internal.LiveEvents;
import dev.jarvis.model.JarvisEvent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One accepted {@code event-stream} subscription: a WorkSession's events after a sequence, written
 * as Server-Sent Events as they are committed (the wire form is {@link EventStream}'s). Its checks
 * (HostAuth, membership, limits) were made when {@link ProtocolHost#answerHeld} accepted it; the
 * binding sends {@link #headers()} with status 200 and then {@link #start starts} it, once, on an
 * {@link EventSink}.
 *
 * <p>It holds no thread while it waits. It is woken by an append to its WorkSession (or by its next
 * deadline on the host's shared tick: a heartbeat, the idle timeout, its longest life, a write's
 * timeout); woken, it reads the events after its last from the store, on the host's small shared
 * pool, and hands them to the sink as one write. It holds no queue: one batch at most is in flight,
 * the next is read from the store only once that one was written, so a subscriber that stops
 * reading costs its place and one batch until the write timeout cuts it.
 */
public final class LiveStream implements AutoCloseable {

  private static final int BATCH = 100;
  private static final byte[] HEARTBEAT = EventStream.HEARTBEAT.getBytes(StandardCharsets.UTF_8);

  private final HostStores stores;
  private final LiveEvents live;
  private final String workSessionId;
  private final Map<String, String> headers;
  private final LiveEvents.Slot slot;
  private final AtomicBoolean started = new AtomicBoolean();
  private final CompletableFuture<String> ended = new CompletableFuture<>();
  private volatile long after;

  // Woken: steps run one at a time (signals counts the wake-ups not yet seen by a step).
  private final AtomicInteger signals = new AtomicInteger();
  // An append may have happened since the last read.
  private volatile boolean stale = true;
  // The host cut it (closing, past its grace).
  private volatile boolean cut;
  // The outcome of the write in flight: 0 none yet, else WRITTEN or FAILED.
  private static final int WRITTEN = 1;
  private static final int FAILED = 2;
  private volatile int outcome;
  private volatile long writes;

  // Touched only by steps (one at a time).
  private EventSink sink;
  private LiveEvents.Watch watch;
  private boolean oneBatch;
  private long idleFor;
  private long idleUntil;
  private long lifeUntil;
  private long heartbeatAt;
  private boolean writing;
  private long writeDeadline;
  private long writtenUpTo = -1;
  private String ending;
  private Runnable untrack;

  // The next deadline, read by the host's shared tick (which steps the stream once it passed).
  private volatile long deadline;
  private volatile boolean armed;
  // The write in flight is a heartbeat: once written, nothing waits on it, so no step is made for
  // it (the next wake-up or deadline's step sees it done).
  private volatile boolean quiet;

  LiveStream(
      HostStores stores,
      LiveEvents live,
      String workSessionId,
      long after,
      Map<String, String> headers,
      LiveEvents.Slot slot) {
    this.stores = stores;
    this.live = live;
    this.workSessionId = workSessionId;
    this.after = after;
    this.headers = Map.copyOf(headers);
    this.slot = slot;
  }

  /** The WorkSession it follows. */
  public String workSessionId() {
    return workSessionId;
  }

  /** The response headers to send with status 200 ({@code Content-Type: text/event-stream}...). */
  public Map<String, String> headers() {
    return headers;
  }

  /** The sequence of the last event written (the start, before any). */
  public long lastSequence() {
    return after;
  }

  /**
   * Starts writing the stream to {@code sink}, and returns at once. It ends idle past the idle
   * timeout, at its longest life, the host closing, the subscriber gone (a write failed), a write
   * stalled past the write timeout (the sink is then {@link EventSink#abort aborted}), or the store
   * failing; then the sink is {@link EventSink#end ended} (after a {@code : end <reason>} line) or
   * aborted, and the stream's place is given back. Call it once.
   *
   * @return why it ended: {@code idle}, {@code expired}, {@code shutdown}, {@code unavailable},
   *     {@code gone} (the subscriber left) or {@code cut} (it stopped reading)
   */
  public CompletionStage<String> start(EventSink sink) {
    return start(sink, live.limits().idleTimeout(), false);
  }

  /**
   * Writes the stream to {@code out} on the calling thread, which it holds until the stream ends,
   * for a runtime that offers only a blocking response (JAX-RS's {@code StreamingOutput}): as
   * {@link #start}, each write made here and flushed. A write stalled past the write timeout calls
   * {@code abortConnection} from another thread: it must close the connection so that the blocked
   * write fails. Never throws.
   *
   * @return why it ended, as {@link #start} says
   */
  public String run(OutputStream out, Runnable abortConnection) {
    return runBlocking(out, abortConnection, live.limits().idleTimeout(), false);
  }

  /**
   * Writes one batch and ends: the events after the start, waiting up to {@code wait} for the
   * first, then {@code : end batch} (or {@code : end idle} when none came). For a server that can
   * only send a response whole (a stub on WireMock): the client reconnects with {@code
   * Last-Event-ID}, as after every end, and loses nothing. Holds the calling thread.
   *
   * @return why it ended, as {@link #start} says, or {@code batch}
   */
  public String runBatch(OutputStream out, Duration wait) {
    return runBlocking(out, () -> {}, wait, true);
  }

  /**
   * Starts the stream on a sink over {@code out} and makes its writes on this thread until it ends.
   */
  private String runBlocking(
      OutputStream out, Runnable abortConnection, Duration idle, boolean oneBatch) {
    BlockingSink blocking = new BlockingSink(out, abortConnection);
    CompletionStage<String> reason = start(blocking, idle, oneBatch);
    blocking.writeUntilEnd();
    return reason.toCompletableFuture().join();
  }

  private CompletionStage<String> start(EventSink sink, Duration idle, boolean oneBatch) {
    if (!started.compareAndSet(false, true)) {
      throw new IllegalStateException("a stream starts once");
    }
    this.sink = sink;
    this.oneBatch = oneBatch;
    this.idleFor = idle.toNanos();
    long now = System.nanoTime();
    idleUntil = now + idleFor;
    lifeUntil = now + live.limits().maxLifetime().toNanos();
    heartbeatAt = now + live.limits().heartbeat().toNanos();
    // Set before the first signal, which publishes them to the step that reads them.
    watch = live.watch(workSessionId, this::woken, this::cutByHost);
    untrack =
        live.track(
            new LiveEvents.Timed() {
              @Override
              public boolean due(long now) {
                return armed && now - deadline >= 0;
              }

              @Override
              public void runDue() {
                signalHere();
              }
            });
    signal();
    return ended;
  }

  private void woken() {
    stale = true;
    signal();
  }

  private void cutByHost() {
    cut = true;
    signal();
  }

  /** Makes a step run: now on the shared pool, or after the one running. */
  private void signal() {
    if (signals.getAndIncrement() == 0) {
      live.execute(this::drain);
    }
  }

  /** Makes a step run: here (a pooled thread), or after the one running. */
  private void signalHere() {
    if (signals.getAndIncrement() == 0) {
      drain();
    }
  }

  private void drain() {
    int seen = 1;
    while (true) {
      try {
        step();
      } catch (RuntimeException unexpected) {
        finish("unavailable", false);
      }
      seen = signals.addAndGet(-seen);
      if (seen == 0) {
        return;
      }
    }
  }

  private void step() {
    if (ended.isDone()) {
      return;
    }
    if (cut) {
      finish(ending != null ? ending : "shutdown", false);
      return;
    }
    long now = System.nanoTime();
    if (writing) {
      int done = outcome;
      if (done == 0) {
        if (now - writeDeadline >= 0) {
          finish(ending != null ? ending : "cut", false);
        } else {
          armWhileWriting();
        }
        return;
      }
      writing = false;
      if (done == FAILED) {
        finish(ending != null ? ending : "gone", false);
        return;
      }
      if (ending != null) {
        finish(ending, true);
        return;
      }
      if (writtenUpTo > after) {
        after = writtenUpTo;
        if (oneBatch) {
          end("batch");
          return;
        }
        idleUntil = now + idleFor;
        heartbeatAt = now + live.limits().heartbeat().toNanos();
        // The batch may have been full, or more came while it was written.
        stale = true;
      }
    }
    if (live.closed()) {
      end("shutdown");
      return;
    }
    if (stale) {
      stale = false;
      List<JsonNode> events;
      try {
        events = stores.sessions().events(workSessionId, after, BATCH);
      } catch (RuntimeException storeFailure) {
        // A store that cannot answer now: the client resumes from its last id elsewhere or later.
        end("unavailable");
        return;
      }
      if (!events.isEmpty()) {
        ByteArrayOutputStream batch = new ByteArrayOutputStream();
        long last = after;
        for (JsonNode event : events) {
          last = event.path(JarvisEvent.JSON_PROPERTY_SEQUENCE).asLong();
          batch.writeBytes(EventStream.frame(last, json(event)));
        }
        write(batch.toByteArray(), last, now, false);
        return;
      }
    }
    if (now - lifeUntil >= 0) {
      end("expired");
    } else if (now - idleUntil >= 0) {
      end("idle");
    } else if (now - heartbeatAt >= 0) {
      heartbeatAt = now + live.limits().heartbeat().toNanos();
      write(HEARTBEAT, after, now, true);
    } else {
      arm(nextDeadline());
    }
  }

  /** The earliest of the heartbeat, the idle timeout and the longest life. */
  private long nextDeadline() {
    return earlier(heartbeatAt, earlier(idleUntil, lifeUntil));
  }

  /**
   * While a write is in flight: its timeout; for a heartbeat, whose completion makes no step, also
   * the stream's own next deadline, which the step then meets once the heartbeat is written.
   */
  private void armWhileWriting() {
    arm(quiet ? earlier(writeDeadline, nextDeadline()) : writeDeadline);
  }

  private static long earlier(long a, long b) {
    return a - b <= 0 ? a : b;
  }

  /** Writes the {@code : end} line, then ends. */
  private void end(String reason) {
    ending = reason;
    write(EventStream.end(reason), after, System.nanoTime(), false);
  }

  private void write(byte[] bytes, long upTo, long now, boolean heartbeat) {
    writing = true;
    writtenUpTo = upTo;
    outcome = 0;
    quiet = heartbeat;
    long id = ++writes;
    writeDeadline = now + live.limits().writeTimeout().toNanos();
    armWhileWriting();
    sink.write(
        bytes,
        new EventSink.Written() {
          @Override
          public void written() {
            settle(id, WRITTEN);
          }

          @Override
          public void failed() {
            settle(id, FAILED);
          }
        });
  }

  private void settle(long id, int result) {
    if (id == writes && outcome == 0) {
      outcome = result;
      // A heartbeat written needs a step only if something came while it was in flight (a step
      // that saw it unfinished left that for now): an append or the host cutting it.
      if (result == FAILED || !quiet || stale || cut) {
        signal();
      }
    }
  }

  /** The next deadline: the shared tick steps the stream once it passed. */
  private void arm(long at) {
    deadline = at;
    armed = true;
  }

  private void finish(String reason, boolean clean) {
    armed = false;
    untrack.run();
    watch.close();
    try {
      if (clean) {
        sink.end();
      } else {
        sink.abort();
      }
    } catch (RuntimeException alreadyGone) {
      // The connection is gone either way.
    }
    slot.close();
    ended.complete(reason);
  }

  private static String json(JsonNode event) {
    try {
      return JarvisJson.mapper().writeValueAsString(event);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a stored event is JSON", e);
    }
  }

  /** Gives the stream's place back without starting it (the binding could not start it). */
  @Override
  public void close() {
    if (!started.get()) {
      slot.close();
    }
  }

  /**
   * A sink over a blocking {@link OutputStream}: each write is handed to the thread that called
   * {@link #writeUntilEnd}, which makes it and reports its outcome.
   */
  private static final class BlockingSink implements EventSink {
    private final OutputStream out;
    private final Runnable abortConnection;
    private byte[] next;
    private Written outcome;
    private boolean over;
    private boolean aborted;

    BlockingSink(OutputStream out, Runnable abortConnection) {
      this.out = out;
      this.abortConnection = abortConnection;
    }

    @Override
    public synchronized void write(byte[] bytes, Written outcome) {
      this.next = bytes;
      this.outcome = outcome;
      notifyAll();
    }

    @Override
    public synchronized void end() {
      over = true;
      notifyAll();
    }

    @Override
    public void abort() {
      synchronized (this) {
        if (aborted) {
          return;
        }
        over = true;
        aborted = true;
        next = null;
        notifyAll();
      }
      try {
        abortConnection.run();
      } catch (RuntimeException alreadyGone) {
        // Closed either way.
      }
    }

    void writeUntilEnd() {
      while (true) {
        byte[] bytes;
        Written written;
        synchronized (this) {
          while (next == null && !over) {
            try {
              wait();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              return;
            }
          }
          if (next == null) {
            return;
          }
          bytes = next;
          written = outcome;
          next = null;
        }
        try {
          out.write(bytes);
          out.flush();
          written.written();
        } catch (IOException | RuntimeException gone) {
          written.failed();
        }
      }
    }
  }
}
