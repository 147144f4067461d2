package dev.jarvis.host;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.eventlog.EventStream;
import dev.jarvis.host.internal.LiveEvents;
import dev.jarvis.model.JarvisEvent;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * One accepted {@code event-stream} subscription: a WorkSession's events after a sequence, written
 * as Server-Sent Events as they are committed (the wire form is {@link EventStream}'s). Its checks
 * (HostAuth, membership, limits) were made when {@link ProtocolHost#answerHeld} accepted it; the
 * binding sends {@link #headers()} with status 200 and then calls {@link #run}, once, on a thread
 * that may block. The stream holds no queue: it reads the events from the store by sequence as fast
 * as the subscriber takes them, so a subscriber that stops reading costs its place and a blocked
 * write, which the write timeout cuts.
 */
public final class LiveStream implements AutoCloseable {

  private static final int BATCH = 100;

  private final HostStores stores;
  private final LiveEvents live;
  private final String workSessionId;
  private final Map<String, String> headers;
  private final LiveEvents.Slot slot;
  private long after;

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
  public synchronized long lastSequence() {
    return after;
  }

  /**
   * Writes the stream to {@code out} (flushing each frame) until it ends: idle past the idle
   * timeout, at its longest life, the host closing, the subscriber gone (a write fails), a write
   * stalled past the write timeout ({@code abortConnection} is then called from another thread: it
   * must close the connection so that the blocked write fails), or the store failing. Never throws;
   * gives the stream's place back when it returns.
   *
   * @param out the response body
   * @param abortConnection closes the underlying connection; called at most once, from any thread
   * @return why it ended: {@code idle}, {@code expired}, {@code shutdown}, {@code unavailable},
   *     {@code gone} (the subscriber left) or {@code cut} (it stopped reading)
   */
  public String run(OutputStream out, Runnable abortConnection) {
    return run(out, abortConnection, live.limits().idleTimeout(), false);
  }

  /**
   * Writes one batch and ends: the events after the start, waiting up to {@code wait} for the
   * first, then {@code : end batch} (or {@code : end idle} when none came). For a server that can
   * only send a response whole (a stub on WireMock): the client reconnects with {@code
   * Last-Event-ID}, as after every end, and loses nothing.
   *
   * @return why it ended, as {@link #run(OutputStream, Runnable)} says, or {@code batch}
   */
  public String runBatch(OutputStream out, java.time.Duration wait) {
    return run(out, () -> {}, wait, true);
  }

  private String run(
      OutputStream out, Runnable abortConnection, java.time.Duration idle, boolean oneBatch) {
    EventStreamLimits limits = live.limits();
    long now = System.nanoTime();
    long idleUntil = now + idle.toNanos();
    long lifeUntil = now + limits.maxLifetime().toNanos();
    long heartbeatAt = now + limits.heartbeat().toNanos();
    try (slot;
        LiveEvents.Waiter waiter = live.waiter(workSessionId);
        LiveEvents.Writer writer = live.writer(abortConnection)) {
      String reason;
      try {
        reason = follow(out, waiter, writer, idleUntil, lifeUntil, heartbeatAt, oneBatch);
      } catch (IOException e) {
        return writer.aborted() ? "cut" : "gone";
      }
      try {
        send(out, writer, EventStream.end(reason));
      } catch (IOException e) {
        // It ends either way.
      }
      return reason;
    }
  }

  private String follow(
      OutputStream out,
      LiveEvents.Waiter waiter,
      LiveEvents.Writer writer,
      long idleUntil,
      long lifeUntil,
      long heartbeatAt,
      boolean oneBatch)
      throws IOException {
    EventStreamLimits limits = live.limits();
    while (true) {
      if (live.closed()) {
        return "shutdown";
      }
      List<JsonNode> events;
      try {
        events = stores.sessions().events(workSessionId, lastSequence(), BATCH);
      } catch (RuntimeException storeFailure) {
        // A store that cannot answer now: the client resumes from its last id elsewhere or later.
        return "unavailable";
      }
      long now = System.nanoTime();
      if (!events.isEmpty()) {
        for (JsonNode event : events) {
          long sequence = event.path(JarvisEvent.JSON_PROPERTY_SEQUENCE).asLong();
          send(out, writer, EventStream.frame(sequence, json(event)));
          synchronized (this) {
            after = sequence;
          }
        }
        if (oneBatch) {
          return "batch";
        }
        idleUntil = System.nanoTime() + limits.idleTimeout().toNanos();
        heartbeatAt = System.nanoTime() + limits.heartbeat().toNanos();
        continue;
      }
      if (now - lifeUntil >= 0) {
        return "expired";
      }
      if (now - idleUntil >= 0) {
        return "idle";
      }
      if (now - heartbeatAt >= 0) {
        send(out, writer, EventStream.HEARTBEAT.getBytes(StandardCharsets.UTF_8));
        heartbeatAt = now + limits.heartbeat().toNanos();
      }
      long wait = Math.min(heartbeatAt - now, Math.min(idleUntil - now, lifeUntil - now));
      waiter.await(Math.max(wait, 1));
    }
  }

  private static void send(OutputStream out, LiveEvents.Writer writer, byte[] bytes)
      throws IOException {
    writer.writing();
    try {
      out.write(bytes);
      out.flush();
    } finally {
      writer.written();
    }
  }

  private static String json(JsonNode event) {
    try {
      return JarvisJson.mapper().writeValueAsString(event);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a stored event is JSON", e);
    }
  }

  /** Gives the stream's place back without running it (the binding could not start it). */
  @Override
  public void close() {
    slot.close();
  }
}
