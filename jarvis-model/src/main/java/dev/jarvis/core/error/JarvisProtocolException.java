package dev.jarvis.core.error;

import dev.jarvis.model.ProtocolError;
import dev.jarvis.model.ProtocolErrorId;

/**
 * A protocol refusal: a host answered with a {@code ProtocolError}, or the SDK refused locally
 * before sending. Switch on {@link #errorId()}.
 */
public class JarvisProtocolException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient ProtocolError error;

  public JarvisProtocolException(ProtocolError error) {
    super(error.getErrorId().getValue() + " at " + error.getField() + ": " + error.getReason());
    this.error = error;
  }

  /** The parsed {@code ProtocolError}. */
  public ProtocolError error() {
    return error;
  }

  /** The typed {@code error_id}. */
  public ProtocolErrorId errorId() {
    return error.getErrorId();
  }
}
