package dev.jarvis.host;

import dev.jarvis.core.error.ProtocolViolation;
import java.util.Objects;

/**
 * A request the host refuses: answered with {@link #httpStatus()} (400, or 401 for failed HostAuth)
 * and a {@code ProtocolError} built from {@link #violation()}. Thrown before anything is stored, so
 * a refused request changes nothing.
 */
public final class ProtocolRefusal extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient ProtocolViolation violation;
  private final int httpStatus;

  /** A refusal answered with HTTP 400. */
  public ProtocolRefusal(ProtocolViolation violation) {
    this(violation, 400);
  }

  /** A refusal answered with the given HTTP status. */
  public ProtocolRefusal(ProtocolViolation violation, int httpStatus) {
    super(violation.errorId().getValue() + " at " + violation.field() + ": " + violation.reason());
    this.violation = Objects.requireNonNull(violation, "violation");
    this.httpStatus = httpStatus;
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
