package dev.jarvis.client.internal;

import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.client.pipeline.PipelineRequest;
import dev.jarvis.client.pipeline.PipelineResponse;
import dev.jarvis.core.headers.JarvisHeaders;
import java.lang.System.Logger.Level;
import java.util.concurrent.CompletableFuture;

/**
 * Per attempt: logs method, path, status or failure, attempt, idempotency key and, on a refusal,
 * its trace id, at DEBUG on {@value #LOGGER}. Never {@code Authorization}, never a body: bodies may
 * carry what the protocol forbids to echo.
 *
 * <p>DEBUG, not INFO: a failed attempt that the next one mends is no news to an application, and
 * the call that fails in the end is reported once, at WARN, by the retry link ({@code
 * dev.jarvis.client.retry}) and by the exception the caller gets.
 */
public final class LoggingPolicy implements JarvisPolicy {

  /** The logger of every attempt. */
  public static final String LOGGER = "dev.jarvis.client.attempt";

  private static final String FORMAT = "{0} {1} -> {2} (attempt {3}, idempotency key {4}{5})";

  @Override
  public String name() {
    return "logging";
  }

  @Override
  public CompletableFuture<PipelineResponse> send(PipelineRequest request, Next next) {
    return ReadyStages.whenComplete(
        next.send(request),
        (answer, failure) -> {
          if (answer != null) {
            boolean refused = answer.status() >= 400;
            log(
                request,
                answer.status(),
                refused ? answer.protocolTraceId().map(t -> ", trace " + t).orElse("") : "");
          } else {
            log(request, GiveUp.rootCause(FailureCause.of(failure)), "");
          }
        });
  }

  private static void log(PipelineRequest request, Object outcome, String trace) {
    if (!Log.LOG.isLoggable(Level.DEBUG)) {
      return;
    }
    Log.LOG.log(
        Level.DEBUG,
        FORMAT,
        request.method(),
        request.uri().getRawPath(),
        outcome,
        request.attempt(),
        request.header(JarvisHeaders.IDEMPOTENCY_KEY).orElse("-"),
        trace);
  }

  /**
   * The logger, found on the first attempt rather than when a client is created: finding it looks
   * up the JVM's logging backend, a cost a cold {@code create} need not pay.
   */
  private static final class Log {
    static final System.Logger LOG = System.getLogger(LOGGER);
  }
}
