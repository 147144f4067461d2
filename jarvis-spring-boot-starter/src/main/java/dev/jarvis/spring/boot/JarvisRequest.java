package dev.jarvis.spring.boot;

import java.time.Duration;

/**
 * One request to the Jarvis servlet, as {@link JarvisRequestObserver} saw it; nothing in it is a
 * credential or a body.
 *
 * @param method the HTTP method
 * @param path the request path as sent (ids included), or a placeholder for a path that is no
 *     operation's
 * @param route the operation's route template below the mount path ({@code
 *     /jarvis/work-sessions/{work_session_id}/events}), {@code UNKNOWN} for no operation's path
 * @param status the HTTP status answered
 * @param actor the {@code Jarvis-Actor-Id} the caller claimed, {@code -} if none
 * @param operation the operationId, {@code none} if the request named no operation
 * @param outcome accepted, replayed, refused, failed, or unknown when the host told nothing
 * @param errorId the answer's {@code error_id}, {@code none} for a success
 * @param traceId the {@code trace_id} (the caller's W3C traceparent trace id when it sent one),
 *     {@code -} if none
 * @param took how long the request took in the servlet
 */
public record JarvisRequest(
    String method,
    String path,
    String route,
    int status,
    String actor,
    String operation,
    String outcome,
    String errorId,
    String traceId,
    Duration took) {

  /** Told of every request to the Jarvis servlet, after it was answered. */
  @FunctionalInterface
  public interface Listener {
    void observed(JarvisRequest request);
  }
}
