package dev.jarvis.client;

import dev.jarvis.core.error.JarvisProtocolException;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.model.ProtocolError;
import java.util.List;
import java.util.Objects;
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

  private final String call;

  /** A refusal the host sent, for a call the message does not name. */
  public JarvisRefusalException(ProtocolError error) {
    this(error, "");
  }

  /**
   * A refusal the host sent to {@code call}, named in the message as the operation, method and
   * path, e.g. {@code recordReview (POST /work-sessions/ws-1/reviews)}.
   */
  public JarvisRefusalException(ProtocolError error, String call) {
    super(error, List.of(), false);
    this.call = Objects.requireNonNull(call, "call");
  }

  private JarvisRefusalException(List<ProtocolViolation> violations) {
    super(violations.get(0).toProtocolError(LOCAL_TRACE_ID), violations, true);
    this.call = "";
  }

  /**
   * The refused call as operation, method and path ({@code recordReview (POST
   * /work-sessions/ws-1/reviews)}); empty for a local refusal, which the caller's own stack trace
   * places.
   */
  public Optional<String> call() {
    return call.isEmpty() ? Optional.empty() : Optional.of(call);
  }

  /** The refusal, after the call it refused where known: {@code createRequest (POST /…): …}. */
  @Override
  public String getMessage() {
    return call.isEmpty() ? super.getMessage() : call + ": " + super.getMessage();
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
