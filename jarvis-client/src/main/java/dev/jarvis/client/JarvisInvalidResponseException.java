package dev.jarvis.client;

import java.util.Objects;
import java.util.Optional;

/**
 * The host answered, but off-spec: a body that is not the record the spec promises, a missing or
 * wrong {@code Jarvis-Protocol-Version}, an event that breaks the chain. The client reports it
 * rather than following it.
 */
public final class JarvisInvalidResponseException extends RuntimeException
    implements JarvisFailure {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final String field;
  private final String traceId;

  public JarvisInvalidResponseException(int status, String field, String message) {
    this(status, field, message, Optional.empty());
  }

  /** An off-spec answer whose body still names a {@code trace_id}. */
  public JarvisInvalidResponseException(
      int status, String field, String message, Optional<String> traceId) {
    super(
        "off-spec response (HTTP "
            + status
            + ") at "
            + field
            + ": "
            + message
            + traceId.map(t -> " [trace " + t + "]").orElse(""));
    this.status = status;
    this.field = field;
    this.traceId = Objects.requireNonNull(traceId, "traceId").orElse(null);
  }

  /** The HTTP status of the off-spec answer. */
  public int status() {
    return status;
  }

  /** Where: a JSON Pointer into the body, or a header name. */
  public String field() {
    return field;
  }

  @Override
  public Kind kind() {
    return Kind.INVALID_RESPONSE;
  }

  @Override
  public Optional<String> protocolTraceId() {
    return Optional.ofNullable(traceId);
  }
}
