package dev.jarvis.host.undertow;

import dev.jarvis.core.headers.HeaderLookup;
import dev.jarvis.host.HeldAnswer;
import dev.jarvis.host.LiveStream;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.StoredResponse;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.ServerConnection;
import io.undertow.util.AttachmentKey;
import io.undertow.util.HeaderMap;
import io.undertow.util.Headers;
import io.undertow.util.HttpString;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.xnio.XnioExecutor;

/**
 * Answers every request it is given as a protocol request, through {@link ProtocolHost#answer}: the
 * host kit routes, checks and handles; this class only moves bytes. The body is read on the IO
 * thread without blocking, so a slow sender holds no worker; the host kit's work runs where {@link
 * AnswerThread} says: on a worker thread by default (it may wait on a store), or on the IO thread
 * itself for a host whose work never waits. Holds the limits of {@link HttpLimits} that a handler
 * can answer: connections, request time, and an oversized body (read up to the host kit's limit
 * plus one byte, so that the guard refuses it, and dropped beyond that).
 */
public final class ProtocolHandler implements HttpHandler {

  private static final AttachmentKey<Boolean> COUNTED = AttachmentKey.create(Boolean.class);

  private final ProtocolHost host;
  private final HttpLimits limits;
  private final AnswerListener listener;
  private final AnswerThread thread;
  private final AtomicInteger connections = new AtomicInteger();

  /** Where the host kit's work for a request runs, once its body has arrived. */
  public enum AnswerThread {
    /**
     * A worker thread of Undertow's pool: the IO thread stays free while the work waits on a store
     * (a database, a commit hook). The default.
     */
    WORKER,
    /**
     * The IO thread that read the request, with no hand-off to a worker: cheaper per request (no
     * queue, no thread to wake), and right only for a host whose work never waits on anything
     * outside the JVM ({@code HostStores.mayWait()} false, no commit hook, a {@code HostAuth} and
     * listeners that return at once). While one request is answered, the other connections of its
     * IO thread wait.
     */
    IO
  }

  /** Told of every answer just before it is sent (a request log, metrics). */
  @FunctionalInterface
  public interface AnswerListener {
    /**
     * Called on the thread that sends the answer; it must not block.
     *
     * @param exchange the request being answered
     * @param status the status about to be sent
     */
    void answered(HttpServerExchange exchange, int status);
  }

  public ProtocolHandler(ProtocolHost host, HttpLimits limits) {
    this(host, limits, (exchange, status) -> {});
  }

  public ProtocolHandler(ProtocolHost host, HttpLimits limits, AnswerListener listener) {
    this(host, limits, listener, AnswerThread.WORKER);
  }

  /** A handler whose host kit work runs on {@code thread}. */
  public ProtocolHandler(
      ProtocolHost host, HttpLimits limits, AnswerListener listener, AnswerThread thread) {
    this.host = Objects.requireNonNull(host, "host");
    this.limits = Objects.requireNonNull(limits, "limits");
    this.listener = Objects.requireNonNull(listener, "listener");
    this.thread = Objects.requireNonNull(thread, "thread");
  }

  /** Connections that sent at least one request and are still open. */
  public int openConnections() {
    return connections.get();
  }

  @Override
  public void handleRequest(HttpServerExchange exchange) {
    if (!admitted(exchange.getConnection())) {
      exchange.setPersistent(false);
      send(
          exchange,
          host.outsideTheProtocol(
              503,
              "The host has as many connections as it serves; retry on another connection later."));
      return;
    }
    BodyReader reader = new BodyReader(exchange);
    reader.start();
  }

  /** Counts a connection on its first request; answers whether it is within the limit. */
  private boolean admitted(ServerConnection connection) {
    Boolean counted = connection.getAttachment(COUNTED);
    if (counted != null) {
      return counted;
    }
    boolean within = connections.incrementAndGet() <= limits.maxConnections();
    if (!within) {
      connections.decrementAndGet();
    } else {
      connection.addCloseListener(closed -> connections.decrementAndGet());
    }
    connection.putAttachment(COUNTED, within);
    return within;
  }

  /** Reads one body on the IO thread, within the size and time limits, then answers it. */
  private final class BodyReader {
    private final HttpServerExchange exchange;
    private final long contentLength;
    private byte[] body = new byte[0];
    private int size;
    private long dropped;
    private boolean finished;
    private XnioExecutor.Key deadline;

    BodyReader(HttpServerExchange exchange) {
      this.exchange = exchange;
      this.contentLength = exchange.getRequestContentLength();
    }

    void start() {
      if (contentLength == 0
          || (contentLength < 0
              && !exchange.getRequestHeaders().contains(Headers.TRANSFER_ENCODING))) {
        // No body (a read): nothing to wait for.
        finish();
        return;
      }
      if (contentLength > ProtocolHost.MAX_BODY_BYTES + HttpLimits.DRAIN_LIMIT) {
        // Announced too big to drain: the guard still judges the request (from what it says
        // first) on no body at all, and the connection closes instead of reading it.
        exchange.setPersistent(false);
        body = new byte[ProtocolHost.MAX_BODY_BYTES + 1];
        size = body.length;
        finish();
        return;
      }
      if (contentLength > 0) {
        body = new byte[(int) Math.min(contentLength, ProtocolHost.MAX_BODY_BYTES + 1L)];
      }
      deadline =
          exchange
              .getIoThread()
              .executeAfter(
                  this::tooSlow, limits.requestTimeout().toMillis(), TimeUnit.MILLISECONDS);
      exchange
          .getRequestReceiver()
          .receivePartialBytes(
              (ex, bytes, last) -> {
                take(bytes);
                if (last) {
                  finish();
                }
              },
              (ex, error) -> {
                // The connection broke or timed out while the body was arriving: nobody to answer.
                finished = true;
                cancelDeadline();
                ex.setPersistent(false);
                ex.endExchange();
              });
    }

    private void take(byte[] bytes) {
      if (finished) {
        return;
      }
      int room = ProtocolHost.MAX_BODY_BYTES + 1 - size;
      int kept = Math.min(room, bytes.length);
      if (kept > 0) {
        if (size + kept > body.length) {
          // No Content-Length (chunked): grow by doubling, never past the limit plus one.
          int grown = Math.min(2 * body.length + 8192, ProtocolHost.MAX_BODY_BYTES + 1);
          body = Arrays.copyOf(body, Math.max(size + kept, grown));
        }
        System.arraycopy(bytes, 0, body, size, kept);
        size += kept;
      }
      dropped += bytes.length - kept;
      if (dropped > HttpLimits.DRAIN_LIMIT) {
        // A body that goes on and on: answer from what came, and close the connection.
        exchange.getRequestReceiver().pause();
        exchange.setPersistent(false);
        finish();
      }
    }

    private void tooSlow() {
      if (finished) {
        return;
      }
      finished = true;
      exchange.getRequestReceiver().pause();
      exchange.setPersistent(false);
      send(
          exchange,
          host.outsideTheProtocol(
              408,
              "The request did not arrive in full within "
                  + limits.requestTimeout().toMillis()
                  + " ms."));
    }

    private void finish() {
      if (finished) {
        return;
      }
      finished = true;
      cancelDeadline();
      byte[] raw = size == body.length ? body : Arrays.copyOf(body, size);
      if (host.holds(
          exchange.getRequestMethod().toString(),
          exchange.getRequestPath(),
          exchange.getQueryString(),
          headersOf(exchange.getRequestHeaders()))) {
        // Checked (and its first read made) on a worker, as every request that may read a store;
        // what then waits holds no thread.
        exchange.dispatch(() -> answerHeld(exchange, raw));
      } else if (thread == AnswerThread.IO) {
        send(exchange, answer(exchange, raw));
      } else {
        exchange.dispatch(() -> sendFromWorker(exchange, answer(exchange, raw)));
      }
    }

    private void cancelDeadline() {
      if (deadline != null) {
        deadline.remove();
      }
    }
  }

  /**
   * Answers a stream or a long poll: a stream is started on the exchange's non-blocking channel
   * ({@link ChannelSink}), a waiting long poll is sent when its answer comes; the worker returns at
   * once and the exchange stays open (a dispatched task does not end it).
   */
  private void answerHeld(HttpServerExchange exchange, byte[] raw) {
    HeldAnswer held =
        host.answerHeld(
            exchange.getRequestMethod().toString(),
            exchange.getRequestPath(),
            exchange.getQueryString(),
            headersOf(exchange.getRequestHeaders()),
            raw);
    if (held instanceof HeldAnswer.Answered answered) {
      sendFromWorker(exchange, answered.response());
    } else if (held instanceof HeldAnswer.Polling polling) {
      polling
          .answer()
          .thenAccept(page -> exchange.getIoThread().execute(() -> send(exchange, page)));
    } else {
      LiveStream stream = ((HeldAnswer.Streaming) held).stream();
      listener.answered(exchange, 200);
      exchange.setStatusCode(200);
      HeaderMap out = exchange.getResponseHeaders();
      stream.headers().forEach((name, value) -> out.put(HttpString.tryFromString(name), value));
      stream.start(new ChannelSink(exchange));
    }
  }

  /** The host kit's answer; it never throws and has told the host's listener. */
  private StoredResponse answer(HttpServerExchange exchange, byte[] raw) {
    return host.answer(
        exchange.getRequestMethod().toString(),
        exchange.getRequestPath(),
        exchange.getQueryString(),
        headersOf(exchange.getRequestHeaders()),
        raw);
  }

  private static Function<String, Optional<String>> headersOf(HeaderMap headers) {
    // HeaderMap looks names up case-insensitively; HeaderLookup combines repeated field lines.
    return HeaderLookup.ofLines(headers::get);
  }

  /**
   * Sends a worker's answer from the exchange's IO thread, so that the exchange also ends there.
   * Ended on a worker, Undertow (2.4) re-arms the connection's reads from that worker under a state
   * its IO thread spins on: when the client's next request is already waiting, the IO thread wakes
   * and spins until the worker runs again, which on a core shared with the worker is the rest of
   * its time slice. Ended on the IO thread, nothing waits for another thread.
   */
  private void sendFromWorker(HttpServerExchange exchange, StoredResponse answer) {
    exchange.getIoThread().execute(() -> send(exchange, answer));
  }

  private void send(HttpServerExchange exchange, StoredResponse answer) {
    listener.answered(exchange, answer.status());
    exchange.setStatusCode(answer.status());
    HeaderMap out = exchange.getResponseHeaders();
    for (Map.Entry<String, String> header : answer.headers().entrySet()) {
      out.put(HttpString.tryFromString(header.getKey()), header.getValue());
    }
    if (!exchange.isPersistent()) {
      out.put(Headers.CONNECTION, "close");
    }
    exchange.getResponseSender().send(ByteBuffer.wrap(answer.body()));
  }
}
