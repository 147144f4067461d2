package dev.jarvis.client;

import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.model.ProtocolErrorId;
import java.util.Optional;

/**
 * The host does not have a capability a call needs, such as {@code event-log} for {@code
 * client.events} and {@code client.audit}: it refused the call's {@code
 * Jarvis-Required-Capabilities} ({@code unsupported_capability}), or, as a host of the spec alone
 * does, answered the capability's read 404 or 405. A refusal ({@code errorId()} is always {@code
 * unsupported_capability}), so nothing happened; ask another host, or audit from an export.
 */
public final class JarvisUnsupportedCapabilityException extends JarvisRefusalException {
  private static final long serialVersionUID = 1L;

  private final String capability;

  /**
   * The host answered {@code status} to a call that needs {@code capability}.
   *
   * @param traceId the host's {@code trace_id}, if it gave one
   */
  public JarvisUnsupportedCapabilityException(
      String capability, int status, Optional<String> traceId) {
    super(
        ProtocolViolation.of(
                ProtocolErrorId.UNSUPPORTED_CAPABILITY,
                "header",
                JarvisHeaders.REQUIRED_CAPABILITIES,
                "The host does not declare the capability '"
                    + capability
                    + "' (it answered "
                    + status
                    + ").")
            .toProtocolError(traceId.orElse(LOCAL_TRACE_ID)));
    this.capability = capability;
  }

  /** The capability the host lacks. */
  public String capability() {
    return capability;
  }
}
