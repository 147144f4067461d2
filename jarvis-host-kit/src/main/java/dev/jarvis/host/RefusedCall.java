package dev.jarvis.host;

import dev.jarvis.model.ProtocolErrorId;
import java.util.Objects;
import java.util.Optional;

/**
 * A request the host refused, as a {@link ProtocolListener} sees it: a broken protocol rule (by the
 * guard or a rule; 4xx), or a request turned away outside the protocol (an unknown path, a
 * binding's own limits, a host that is draining). Nothing was written. A failure of the host itself
 * is a {@link FailedCall}, never one of these.
 *
 * @param operationId the operation, when the request got as far as naming one
 * @param httpStatus the answer's status (400, 401, 404, 409, ...; 503 for a host draining)
 * @param errorId the answer's {@code error_id}
 * @param traceId the answer's {@code trace_id}
 * @param actorId the acting Actor ({@code Jarvis-Actor-Id}), when the request got past the guard
 * @param route the operation's path template ({@code /work-sessions/{work_session_id}/events}),
 *     when the request got past the guard
 */
public record RefusedCall(
    Optional<String> operationId,
    int httpStatus,
    ProtocolErrorId errorId,
    String traceId,
    Optional<String> actorId,
    Optional<String> route) {

  public RefusedCall {
    Objects.requireNonNull(operationId, "operationId");
    Objects.requireNonNull(errorId, "errorId");
    Objects.requireNonNull(traceId, "traceId");
    Objects.requireNonNull(actorId, "actorId");
    Objects.requireNonNull(route, "route");
  }

  /** A refusal of a request that did not get past the guard: no Actor or route is known. */
  public RefusedCall(
      Optional<String> operationId, int httpStatus, ProtocolErrorId errorId, String traceId) {
    this(operationId, httpStatus, errorId, traceId, Optional.empty(), Optional.empty());
  }
}
