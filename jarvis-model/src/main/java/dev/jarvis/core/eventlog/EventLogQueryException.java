package dev.jarvis.core.eventlog;

import dev.jarvis.core.error.ProtocolViolation;

/** A query of the event log that names no page: the violation is the host's 400 answer. */
public final class EventLogQueryException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final transient ProtocolViolation violation;

  EventLogQueryException(ProtocolViolation violation) {
    super(violation.reason());
    this.violation = violation;
  }

  /** The refusal, {@code unknown_state} at the offending parameter. */
  public ProtocolViolation violation() {
    return violation;
  }
}
