package dev.jarvis.client;

/**
 * The host could not be reached or read: connection refused or reset, a timeout, an empty or
 * truncated answer, or retryable statuses until the retry policy gave up. Nothing is known about
 * whether the host acted; repeating the same call (same idempotency key) is safe.
 */
public class JarvisTransportException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public JarvisTransportException(String message, Throwable cause) {
    super(message, cause);
  }

  public JarvisTransportException(String message) {
    super(message);
  }
}
