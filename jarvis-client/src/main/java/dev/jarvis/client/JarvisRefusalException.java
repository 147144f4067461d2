package dev.jarvis.client;

import dev.jarvis.core.error.JarvisProtocolException;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.model.ProtocolError;
import java.util.List;
import java.util.Optional;

/**
 * A refusal as the client reports it: the host answered with a {@code ProtocolError}, or the client
 * refused locally before sending anything ({@link #isLocal()}). It is a {@link
 * JarvisProtocolException}, so code that catches that (host and client alike) keeps working, and a
 * {@link JarvisFailure}, so it belongs to the client's one family. Switch on {@link #errorId()}.
 */
public sealed class JarvisRefusalException extends JarvisProtocolException implements JarvisFailure
    permits JarvisStaleSessionException, JarvisUnsupportedCapabilityException {
  private static final long serialVersionUID = 1L;

  /** A refusal the host sent. */
  public JarvisRefusalException(ProtocolError error) {
    super(error, List.of(), false);
  }

  private JarvisRefusalException(List<ProtocolViolation> violations) {
    super(violations.get(0).toProtocolError(LOCAL_TRACE_ID), violations, true);
  }

  /** A local refusal of these violations (at least one), before anything was sent. */
  public static JarvisRefusalException local(List<ProtocolViolation> violations) {
    if (violations.isEmpty()) {
      throw new IllegalArgumentException("a refusal needs at least one violation");
    }
    return new JarvisRefusalException(violations);
  }

  @Override
  public Kind kind() {
    return Kind.REFUSED;
  }

  @Override
  public Optional<String> protocolTraceId() {
    return Optional.ofNullable(error().getTraceId());
  }
}
