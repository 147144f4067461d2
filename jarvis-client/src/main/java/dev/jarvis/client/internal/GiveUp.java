package dev.jarvis.client.internal;

import dev.jarvis.client.JarvisTransportException;
import dev.jarvis.client.pipeline.PipelineRequest;
import dev.jarvis.client.pipeline.PipelineResponse;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/**
 * The end of a call the retry link could not bring to an answer: the {@link
 * JarvisTransportException} the caller gets and the one WARN line on {@value #LOGGER}. Both say
 * what a user needs to act without reading the source: method, URL with host and port, attempts
 * made, time spent and the root cause (or the status the host kept answering), and why it was not
 * retried when it was not.
 */
final class GiveUp {

  /** The logger of give-ups (WARN) and of the waits before a retry (DEBUG). */
  static final String LOGGER = "dev.jarvis.client.retry";

  private static final System.Logger LOG = System.getLogger(LOGGER);

  private GiveUp() {}

  /** The host could not be reached or read, on every attempt made. */
  static JarvisTransportException unreachable(
      PipelineRequest request,
      int attempts,
      Duration elapsed,
      IOException cause,
      Optional<String> notRetried) {
    String message =
        where(request)
            + ": could not reach or read the host after "
            + spent(attempts, elapsed)
            + notRetried.map(why -> " (not retried: " + why + ")").orElse("")
            + ": "
            + rootCause(cause);
    LOG.log(Level.WARNING, message);
    return new JarvisTransportException(message, cause);
  }

  /** The host kept answering a status that says "not now". */
  static JarvisTransportException stillUnavailable(
      PipelineResponse answer, int attempts, Duration elapsed) {
    String message =
        where(answer.request())
            + ": the host answered "
            + answer.status()
            + " to the last of "
            + spent(attempts, elapsed);
    LOG.log(Level.WARNING, message);
    return new JarvisTransportException(message, answer.protocolTraceId());
  }

  /** A wait before the next attempt, at DEBUG. */
  static void retrying(PipelineRequest request, int attempt, Duration wait, String after) {
    LOG.log(
        Level.DEBUG,
        () ->
            where(request)
                + ": attempt "
                + attempt
                + " "
                + after
                + ", next in "
                + wait.toMillis()
                + " ms");
  }

  /**
   * {@code POST http://host:port/path}: never the query or user info, which may carry a secret; the
   * port always, so the user sees which one was tried.
   */
  static String where(PipelineRequest request) {
    URI uri = request.uri();
    int port = uri.getPort() != -1 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
    return request.method()
        + " "
        + uri.getScheme()
        + "://"
        + uri.getHost()
        + ":"
        + port
        + uri.getRawPath();
  }

  private static String spent(int attempts, Duration elapsed) {
    return attempts
        + (attempts == 1 ? " attempt" : " attempts")
        + " in "
        + elapsed.toMillis()
        + " ms";
  }

  /**
   * The innermost cause that says something, with its type: {@code java.net.http} often throws a
   * {@code ConnectException} with no message whose cause holds the reason.
   */
  static String rootCause(Throwable failure) {
    Throwable said = null;
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t.getMessage() != null && !t.getMessage().isBlank()) {
        said = t;
      }
    }
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    Throwable shown = said != null ? said : root;
    String text =
        shown.getClass().getName() + (shown.getMessage() == null ? "" : ": " + shown.getMessage());
    return shown == failure ? text : failure.getClass().getSimpleName() + " caused by " + text;
  }
}
