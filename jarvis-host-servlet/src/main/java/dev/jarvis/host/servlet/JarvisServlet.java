package dev.jarvis.host.servlet;

import dev.jarvis.core.headers.HeaderLookup;
import dev.jarvis.host.EventSink;
import dev.jarvis.host.HeldAnswer;
import dev.jarvis.host.LiveStream;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.StoredResponse;
import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Answers every request it is given as a protocol request, through {@link ProtocolHost#answer}: the
 * host kit routes, checks and handles; this servlet only moves bytes, as the Undertow binding does.
 * Mount it at a path of its own ({@code /jarvis/*}); the path below the mapping ({@link
 * HttpServletRequest#getPathInfo()}) is the protocol's path. Every method, PATCH included, reaches
 * the host kit, so a method the protocol has not is answered with a {@code ProtocolError} too.
 *
 * <p>The body is read up to the host kit's limit plus one byte, so that the guard refuses an
 * oversized one; a body longer than that is not read on, and the connection is closed after the
 * answer rather than drained.
 */
public final class JarvisServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;

  private final transient ProtocolHost host;

  public JarvisServlet(ProtocolHost host) {
    this.host = Objects.requireNonNull(host, "host");
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    byte[] body;
    boolean rest;
    try (InputStream in = request.getInputStream()) {
      body = in.readNBytes(ProtocolHost.MAX_BODY_BYTES + 1);
      rest = body.length > ProtocolHost.MAX_BODY_BYTES && in.read() >= 0;
    }
    String path = Optional.ofNullable(request.getPathInfo()).orElse("/");
    String query = Optional.ofNullable(request.getQueryString()).orElse("");
    if (host.holds(request.getMethod(), path, query, headersOf(request))) {
      // Answered here, on the container's thread, where a HostAuth reading thread-bound state
      // (Spring Security's context) finds it; what then waits holds no thread.
      HeldAnswer held = host.answerHeld(request.getMethod(), path, query, headersOf(request), body);
      if (held instanceof HeldAnswer.Answered answered) {
        send(response, answered.response(), rest);
      } else if (!request.isAsyncSupported()) {
        holdContainerThread(response, held);
      } else {
        AsyncContext async = request.startAsync();
        async.setTimeout(0);
        AsyncSink sink;
        try {
          // Non-blocking from here on; set on the container's thread.
          sink = new AsyncSink(async);
        } catch (IOException | RuntimeException gone) {
          if (held instanceof HeldAnswer.Streaming streaming) {
            streaming.stream().close();
          }
          async.complete();
          throw gone;
        }
        if (held instanceof HeldAnswer.Polling polling) {
          polling.answer().thenAccept(page -> sendLater(sink, response, page));
        } else {
          LiveStream stream = ((HeldAnswer.Streaming) held).stream();
          response.setStatus(200);
          stream.headers().forEach(response::setHeader);
          stream.start(sink);
        }
      }
      return;
    }
    // ProtocolHost.answer never throws, and has told the host's listener.
    StoredResponse answer =
        host.answer(
            request.getMethod(),
            Optional.ofNullable(request.getPathInfo()).orElse("/"),
            // The event-log read takes its page from the query; no spec operation reads one.
            Optional.ofNullable(request.getQueryString()).orElse(""),
            headersOf(request),
            body);
    send(response, answer, rest);
  }

  /** Sends a long poll's page, come later, without blocking, and completes the request. */
  private static void sendLater(AsyncSink sink, HttpServletResponse response, StoredResponse page) {
    setHeaders(response, page, false);
    sink.write(
        page.body(),
        new EventSink.Written() {
          @Override
          public void written() {
            sink.end();
          }

          @Override
          public void failed() {
            sink.abort();
          }
        });
  }

  /**
   * A servlet registered without async support: the stream or long poll holds the container's
   * thread while it lasts.
   */
  private static void holdContainerThread(HttpServletResponse response, HeldAnswer held)
      throws IOException {
    if (held instanceof HeldAnswer.Polling polling) {
      send(response, polling.answer().toCompletableFuture().join(), false);
      return;
    }
    LiveStream stream = ((HeldAnswer.Streaming) held).stream();
    response.setStatus(200);
    stream.headers().forEach(response::setHeader);
    response.flushBuffer();
    ServletOutputStream out = response.getOutputStream();
    stream.run(
        out,
        () -> {
          try {
            out.close();
          } catch (IOException alreadyGone) {
            // Closed either way.
          }
        });
  }

  /**
   * Header lookup as the host kit expects it: names case-insensitive (the container's), repeated
   * field lines combined by HeaderLookup.
   */
  private static Function<String, Optional<String>> headersOf(HttpServletRequest request) {
    return HeaderLookup.ofLines(
        name -> {
          Enumeration<String> lines = request.getHeaders(name);
          return lines == null ? List.of() : Collections.list(lines);
        });
  }

  private static void send(HttpServletResponse response, StoredResponse answer, boolean close)
      throws IOException {
    setHeaders(response, answer, close);
    response.getOutputStream().write(answer.body());
  }

  private static void setHeaders(
      HttpServletResponse response, StoredResponse answer, boolean close) {
    response.setStatus(answer.status());
    for (Map.Entry<String, String> header : answer.headers().entrySet()) {
      response.setHeader(header.getKey(), header.getValue());
    }
    if (close) {
      response.setHeader("Connection", "close");
    }
    response.setContentLength(answer.body().length);
  }
}
