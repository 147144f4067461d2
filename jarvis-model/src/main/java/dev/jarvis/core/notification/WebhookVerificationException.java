package dev.jarvis.core.notification;

/** A webhook delivery that failed verification: answer it 400 (or 401) and do not act on it. */
public final class WebhookVerificationException extends Exception {

  private static final long serialVersionUID = 1L;

  /** Why the delivery was refused. */
  public enum Reason {
    /** A header of {@link WebhookSignature} is missing or malformed. */
    MISSING_HEADER,
    /** The timestamp is outside the window around the receiver's clock (a replay, or skew). */
    TIMESTAMP_OUTSIDE_WINDOW,
    /** No signature matches: another secret, or a body or header changed on the way. */
    BAD_SIGNATURE,
    /** Signed correctly, but the body is not a notification (or larger than the limit). */
    MALFORMED_BODY
  }

  private final Reason reason;

  public WebhookVerificationException(Reason reason, String message) {
    super(message);
    this.reason = reason;
  }

  /** Why. */
  public Reason reason() {
    return reason;
  }
}
