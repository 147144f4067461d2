package dev.jarvis.host;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The trace id of a W3C Trace Context {@code traceparent} header ({@code
 * version-traceid-parentid-flags}), so that a {@code ProtocolError}'s {@code trace_id} names the
 * caller's trace. The header is not the protocol's: a malformed one is ignored, never refused.
 * Public so that a binding's own request log (the Spring Boot starter's) names the same trace id
 * the host put in its errors.
 */
public final class TraceParent {

  /** The header name (W3C Trace Context, lower case as the recommendation writes it). */
  public static final String HEADER = "traceparent";

  // Version 00 has exactly four fields; a later version may append more after a dash.
  private static final Pattern FORMAT =
      Pattern.compile("([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-[0-9a-f]{2}(-.*)?");
  private static final String ZERO_TRACE = "0".repeat(32);
  private static final String ZERO_PARENT = "0".repeat(16);

  private TraceParent() {}

  /** The 32 hex digits of the trace id, if {@code header} is a valid {@code traceparent}. */
  public static Optional<String> traceId(Optional<String> header) {
    if (header.isEmpty() || header.get().length() > 512) {
      return Optional.empty();
    }
    var m = FORMAT.matcher(header.get().trim());
    if (!m.matches()) {
      return Optional.empty();
    }
    String version = m.group(1);
    boolean invalid =
        version.equals("ff")
            || (version.equals("00") && m.group(4) != null)
            || m.group(2).equals(ZERO_TRACE)
            || m.group(3).equals(ZERO_PARENT);
    return invalid ? Optional.empty() : Optional.of(m.group(2));
  }
}
