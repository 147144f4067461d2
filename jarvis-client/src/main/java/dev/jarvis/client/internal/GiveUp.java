package dev.jarvis.client.internal;

import dev.jarvis.client.JarvisTransportException;
import dev.jarvis.client.pipeline.PipelineRequest;
import dev.jarvis.client.pipeline.PipelineResponse;
import dev.jarvis.core.headers.JarvisHeaders;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
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
            + (connectionRefused(cause) ? refused(request) : rootCause(cause))
            + mayHaveApplied(request);
    LOG.log(Level.WARNING, message);
    return new JarvisTransportException(message, cause, Optional.empty(), key(request));
  }

  /**
   * Whether nothing accepted the connection. {@code java.net.http} reports that as a {@code
   * ConnectException} with no message caused by a {@code ClosedChannelException}, which reads as
   * anything but "connection refused"; a connect timeout is a {@code ConnectException} too, told
   * apart by its {@code HttpTimeoutException}.
   */
  static boolean connectionRefused(Throwable failure) {
    boolean connect = false;
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof HttpTimeoutException) {
        return false;
      }
      if (t instanceof ConnectException) {
        connect = true;
      }
      String said = t.getMessage();
      if (said != null && !said.isBlank() && !said.contains("Connection refused")) {
        return false;
      }
    }
    return connect;
  }

  private static String refused(PipelineRequest request) {
    URI uri = request.uri();
    return "connection refused by "
        + uri.getHost()
        + ":"
        + port(uri)
        + " (nothing is listening there: is the host running, on that host and port?)";
  }

  /**
   * For a mutation: an attempt may have reached the host and only its answer been lost, and the
   * caller must know that repeating it is safe only under the same key.
   */
  private static String mayHaveApplied(PipelineRequest request) {
    return key(request)
        .map(
            key ->
                ". The host may have applied this "
                    + request.operation().operationId()
                    + ": re-running the same JarvisCall with the same Jarvis-Idempotency-Key"
                    + " (call.withIdempotencyKey(\""
                    + key
                    + "\"), key in JarvisTransportException.idempotencyKey()) is safe; the host"
                    + " answers a repeated key with its first answer")
        .orElse("");
  }

  private static Optional<String> key(PipelineRequest request) {
    return request.operation().operationClass().isMutation()
        ? request.header(JarvisHeaders.IDEMPOTENCY_KEY)
        : Optional.empty();
  }

  /** The host kept answering a status that says "not now". */
  static JarvisTransportException stillUnavailable(
      PipelineResponse answer, int attempts, Duration elapsed) {
    String message =
        where(answer.request())
            + ": the host answered "
            + answer.status()
            + " to the last of "
            + spent(attempts, elapsed)
            + mayHaveApplied(answer.request());
    LOG.log(Level.WARNING, message);
    return new JarvisTransportException(
        message, null, answer.protocolTraceId(), key(answer.request()));
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
    return request.method()
        + " "
        + uri.getScheme()
        + "://"
        + uri.getHost()
        + ":"
        + port(uri)
        + uri.getRawPath();
  }

  private static int port(URI uri) {
    return uri.getPort() != -1 ? uri.getPort() : "https".equals(uri.getScheme()) ? 443 : 80;
  }

  /**
   * {@code recordReview (POST /work-sessions/ws-1/reviews)}: the operation, method and path (never
   * the query), which is how a refusal names the call it refused.
   */
  static String call(PipelineRequest request) {
    return request.operation().operationId()
        + " ("
        + request.method()
        + " "
        + request.uri().getRawPath()
        + ")";
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
