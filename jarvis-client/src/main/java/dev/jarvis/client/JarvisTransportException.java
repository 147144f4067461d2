package dev.jarvis.client;

import java.util.Objects;
import java.util.Optional;

/**
 * The host could not be reached or read: connection refused or reset, a timeout, an empty or
 * truncated answer, or retryable statuses until the retry policy gave up. For a mutation the host
 * may have applied it (an attempt may have arrived and only its answer been lost): re-running it
 * with the same key ({@code call.withIdempotencyKey(e.idempotencyKey().orElseThrow())}) is safe,
 * since a host answers a repeated key with its first answer.
 */
public final class JarvisTransportException extends RuntimeException implements JarvisFailure {
  private static final long serialVersionUID = 1L;

  private final String traceId;
  private final String idempotencyKey;

  public JarvisTransportException(String message, Throwable cause) {
    this(message, cause, Optional.empty(), Optional.empty());
  }

  public JarvisTransportException(String message) {
    this(message, null, Optional.empty(), Optional.empty());
  }

  /** Gave up on retryable answers; the last one was a ProtocolError with {@code traceId}. */
  public JarvisTransportException(String message, Optional<String> traceId) {
    this(message, null, traceId, Optional.empty());
  }

  /**
   * Gave up on a call; {@code traceId} is the last answer's {@code ProtocolError.trace_id}, {@code
   * idempotencyKey} the key every attempt of a mutation carried.
   */
  public JarvisTransportException(
      String message, Throwable cause, Optional<String> traceId, Optional<String> idempotencyKey) {
    super(message + traceId.map(t -> " [trace " + t + "]").orElse(""), cause);
    this.traceId = Objects.requireNonNull(traceId, "traceId").orElse(null);
    this.idempotencyKey = Objects.requireNonNull(idempotencyKey, "idempotencyKey").orElse(null);
  }

  @Override
  public Kind kind() {
    return Kind.TRANSPORT;
  }

  @Override
  public Optional<String> protocolTraceId() {
    return Optional.ofNullable(traceId);
  }

  /**
   * The {@code Jarvis-Idempotency-Key} every attempt of the mutation carried; empty for a read.
   * Re-run the mutation with {@link JarvisCall#withIdempotencyKey(String)} and this key.
   */
  public Optional<String> idempotencyKey() {
    return Optional.ofNullable(idempotencyKey);
  }
}
