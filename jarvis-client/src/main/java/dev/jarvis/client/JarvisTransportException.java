package dev.jarvis.client;

import java.util.Objects;
import java.util.Optional;

/**
 * The host could not be reached or read: connection refused or reset, a timeout, an empty or
 * truncated answer, or retryable statuses until the retry policy gave up. Nothing is known about
 * whether the host acted; repeating the same call (same idempotency key) is safe.
 */
public final class JarvisTransportException extends RuntimeException implements JarvisFailure {
  private static final long serialVersionUID = 1L;

  private final String traceId;

  public JarvisTransportException(String message, Throwable cause) {
    super(message, cause);
    this.traceId = null;
  }

  public JarvisTransportException(String message) {
    super(message);
    this.traceId = null;
  }

  /** Gave up on retryable answers; the last one was a ProtocolError with {@code traceId}. */
  public JarvisTransportException(String message, Optional<String> traceId) {
    super(message + traceId.map(t -> " [trace " + t + "]").orElse(""));
    this.traceId = Objects.requireNonNull(traceId, "traceId").orElse(null);
  }

  @Override
  public Kind kind() {
    return Kind.TRANSPORT;
  }

  @Override
  public Optional<String> protocolTraceId() {
    return Optional.ofNullable(traceId);
  }
}
