package dev.jarvis.host;

import dev.jarvis.model.ProtocolErrorId;
import java.util.Objects;
import java.util.Optional;

/**
 * A request answered with a {@code ProtocolError}, as a {@link ProtocolListener} sees it.
 *
 * @param operationId the operation, when the request got as far as naming one
 * @param httpStatus the answer's status (400, 401, 500, ...)
 * @param errorId the answer's {@code error_id}
 * @param traceId the answer's {@code trace_id}
 */
public record RefusedCall(
    Optional<String> operationId, int httpStatus, ProtocolErrorId errorId, String traceId) {

  public RefusedCall {
    Objects.requireNonNull(operationId, "operationId");
    Objects.requireNonNull(errorId, "errorId");
    Objects.requireNonNull(traceId, "traceId");
  }
}
