package dev.jarvis.client;

/**
 * The host answered, but off-spec: a body that is not the record the spec promises, a missing or
 * wrong {@code Jarvis-Protocol-Version}, an event that breaks the chain. The client reports it
 * rather than following it.
 */
public class JarvisInvalidResponseException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final int status;
  private final String field;

  public JarvisInvalidResponseException(int status, String field, String message) {
    super("off-spec response (HTTP " + status + ") at " + field + ": " + message);
    this.status = status;
    this.field = field;
  }

  /** The HTTP status of the off-spec answer. */
  public int status() {
    return status;
  }

  /** Where: a JSON Pointer into the body, or a header name. */
  public String field() {
    return field;
  }
}
