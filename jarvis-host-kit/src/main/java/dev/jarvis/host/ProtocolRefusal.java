package dev.jarvis.host;

import dev.jarvis.core.error.ProtocolViolation;
import java.util.Objects;
import java.util.Optional;

/**
 * A request the host refuses: answered with {@link #httpStatus()} (400, or 401 for failed HostAuth)
 * and a {@code ProtocolError} built from {@link #violation()}. Thrown before anything is stored, so
 * a refused request changes nothing.
 */
public final class ProtocolRefusal extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient ProtocolViolation violation;
  private final int httpStatus;
  private final transient Optional<String> operationId;
  private final transient Optional<String> traceId;

  /** A refusal answered with HTTP 400. */
  public ProtocolRefusal(ProtocolViolation violation) {
    this(violation, 400);
  }

  /** A refusal answered with the given HTTP status. */
  public ProtocolRefusal(ProtocolViolation violation, int httpStatus) {
    this(violation, httpStatus, Optional.empty(), Optional.empty());
  }

  private ProtocolRefusal(
      ProtocolViolation violation,
      int httpStatus,
      Optional<String> operationId,
      Optional<String> traceId) {
    super(violation.errorId().getValue() + " at " + violation.field() + ": " + violation.reason());
    this.violation = Objects.requireNonNull(violation, "violation");
    this.httpStatus = httpStatus;
    this.operationId = operationId;
    this.traceId = traceId;
  }

  /**
   * The same refusal, known to be about {@code operationId} and to be traced as {@code traceId}
   * (from the request's {@code traceparent}); {@link ProtocolHost#check} adds both.
   */
  public ProtocolRefusal about(String operationId, Optional<String> traceId) {
    ProtocolRefusal tagged =
        new ProtocolRefusal(violation, httpStatus, Optional.of(operationId), traceId);
    tagged.setStackTrace(getStackTrace());
    return tagged;
  }

  /** The operation refused, when the request got as far as naming one. */
  public Optional<String> operationId() {
    return operationId;
  }

  /** The {@code trace_id} the answer carries, when the request brought a trace context. */
  public Optional<String> traceId() {
    return traceId;
  }

  /** What is wrong. */
  public ProtocolViolation violation() {
    return violation;
  }

  /** The HTTP status of the answer. */
  public int httpStatus() {
    return httpStatus;
  }
}
