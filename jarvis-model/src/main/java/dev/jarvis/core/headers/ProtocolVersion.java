package dev.jarvis.core.headers;

import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.model.ProtocolErrorId;
import java.util.Optional;

/**
 * {@code Jarvis-Protocol-Version}, on every request and response. This SDK speaks {@code v0.1}
 * only, compared exactly: {@code V0.1} or {@code 0.1} is another version.
 *
 * <p>Absent or empty is {@code missing_protocol_version}; anything else than {@code v0.1} is {@code
 * unsupported_protocol_version}.
 *
 * @param value the header text
 */
public record ProtocolVersion(String value) {

  /** The only version this SDK speaks. */
  public static final ProtocolVersion V0_1 = new ProtocolVersion(JarvisSpec.PROTOCOL_VERSION);

  public ProtocolVersion {
    if (!JarvisSpec.PROTOCOL_VERSION.equals(value)) {
      throw new IllegalArgumentException(
          "unsupported protocol version; this SDK speaks " + JarvisSpec.PROTOCOL_VERSION);
    }
  }

  /** Parses the header text; {@code raw} is empty when the header is absent. */
  public static Parsed<ProtocolVersion> parse(Optional<String> raw) {
    return HeaderText.required(
        raw,
        ProtocolErrorId.MISSING_PROTOCOL_VERSION,
        JarvisHeaders.PROTOCOL_VERSION,
        value ->
            value.equals(JarvisSpec.PROTOCOL_VERSION)
                ? Parsed.accepted(V0_1)
                : Parsed.refused(
                    ProtocolViolation.header(
                        ProtocolErrorId.UNSUPPORTED_PROTOCOL_VERSION,
                        JarvisHeaders.PROTOCOL_VERSION,
                        JarvisHeaders.PROTOCOL_VERSION
                            + " is not "
                            + JarvisSpec.PROTOCOL_VERSION
                            + ", the only version spoken here.")));
  }

  /** The header text. */
  public String headerValue() {
    return value;
  }
}
