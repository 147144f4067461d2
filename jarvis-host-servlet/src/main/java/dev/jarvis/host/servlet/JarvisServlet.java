package dev.jarvis.host.servlet;

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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
      // Checked here, on the container's thread, where a HostAuth reading thread-bound state
      // (Spring Security's context) finds it; only what may wait moves to a thread of its own.
      HeldAnswer checked =
          host.checkHeld(request.getMethod(), path, query, headersOf(request), body);
      if (!(checked instanceof HeldAnswer.Checked call)) {
        send(response, ((HeldAnswer.Answered) checked).response(), rest);
        return;
      }
      if (!request.isAsyncSupported()) {
        // Registered without async support: the stream holds the container's thread.
        answerHeld(request, response, call);
        return;
      }
      AsyncContext async = request.startAsync();
      async.setTimeout(0);
      HELD.execute(
          () -> {
            try {
              answerHeld(request, response, call);
            } catch (IOException | RuntimeException gone) {
              // The subscriber left while its answer was written: nobody to tell.
            } finally {
              async.complete();
            }
          });
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

  /**
   * Runs the streams and long polls ({@code event-stream}) of requests in async mode: one thread
   * each while it lasts, parked while idle, as many as the host kit's subscriber limits admit.
   */
  private static final ExecutorService HELD =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "jarvis-servlet-held");
            t.setDaemon(true);
            return t;
          });

  private void answerHeld(
      HttpServletRequest request, HttpServletResponse response, HeldAnswer.Checked checked)
      throws IOException {
    HeldAnswer held = host.answerHeld(checked.call(), headersOf(request));
    if (held instanceof HeldAnswer.Answered answered) {
      send(response, answered.response(), false);
      return;
    }
    LiveStream stream = ((HeldAnswer.Streaming) held).stream();
    response.setStatus(200);
    stream.headers().forEach(response::setHeader);
    response.flushBuffer();
    ServletOutputStream out = response.getOutputStream();
    // A write that stalls (the subscriber stopped reading) is ended by closing the response's
    // stream; the container's own write timeout bounds it too.
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
   * field lines combined with ", " (RFC 9110 section 5.3), as the protocol core's HeaderLookup
   * does.
   */
  private static Function<String, Optional<String>> headersOf(HttpServletRequest request) {
    return name -> {
      Enumeration<String> values = request.getHeaders(name);
      if (values == null || !values.hasMoreElements()) {
        return Optional.empty();
      }
      List<String> all = Collections.list(values);
      return Optional.of(all.size() == 1 ? all.get(0) : String.join(", ", all));
    };
  }

  private static void send(HttpServletResponse response, StoredResponse answer, boolean close)
      throws IOException {
    response.setStatus(answer.status());
    for (Map.Entry<String, String> header : answer.headers().entrySet()) {
      response.setHeader(header.getKey(), header.getValue());
    }
    if (close) {
      response.setHeader("Connection", "close");
    }
    response.setContentLength(answer.body().length);
    response.getOutputStream().write(answer.body());
  }
}
