package dev.jarvis.host;

import dev.jarvis.model.ProtocolErrorId;
import java.util.Objects;
import java.util.Optional;

/**
 * A request the host failed to answer, as a {@link ProtocolListener} sees it: a failure of the host
 * itself (a store that cannot serve now, a defect), never a broken protocol rule, which is a {@link
 * RefusedCall}. Answered with a {@code ProtocolError} that tells nothing of the internals, and
 * logged once on {@code dev.jarvis.host} with the same {@code trace_id} and the cause.
 *
 * @param operationId the operation, when the request got as far as naming one
 * @param httpStatus the answer's status: 503 when the store cannot serve now (retry later), else
 *     500
 * @param errorId the answer's {@code error_id}
 * @param traceId the answer's {@code trace_id}, under which the cause is logged
 * @param actorId the acting Actor ({@code Jarvis-Actor-Id}), when the request got past the guard
 * @param route the operation's path template, when the request got past the guard
 */
public record FailedCall(
    Optional<String> operationId,
    int httpStatus,
    ProtocolErrorId errorId,
    String traceId,
    Optional<String> actorId,
    Optional<String> route) {

  public FailedCall {
    Objects.requireNonNull(operationId, "operationId");
    Objects.requireNonNull(errorId, "errorId");
    Objects.requireNonNull(traceId, "traceId");
    Objects.requireNonNull(actorId, "actorId");
    Objects.requireNonNull(route, "route");
  }

  /** A failure outside any checked call: no operation, Actor or route is known. */
  public FailedCall(int httpStatus, ProtocolErrorId errorId, String traceId) {
    this(Optional.empty(), httpStatus, errorId, traceId, Optional.empty(), Optional.empty());
  }

  /** Whether the store could not serve now (503 with {@code Retry-After}): a retry may succeed. */
  public boolean storeUnavailable() {
    return httpStatus == 503;
  }
}
