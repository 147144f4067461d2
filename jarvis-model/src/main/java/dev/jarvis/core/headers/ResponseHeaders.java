package dev.jarvis.core.headers;

import dev.jarvis.core.error.ProtocolViolation;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The protocol headers of a response. The spec declares {@code Jarvis-Protocol-Version} on every
 * response without marking it required; this SDK requires it, since a response that does not say
 * {@code v0.1} cannot be read as {@code v0.1} ({@code missing_protocol_version} or {@code
 * unsupported_protocol_version}). {@code Jarvis-Host-Capabilities} is optional.
 *
 * @param protocolVersion {@code Jarvis-Protocol-Version}
 * @param hostCapabilities {@code Jarvis-Host-Capabilities}, if sent
 */
public record ResponseHeaders(
    ProtocolVersion protocolVersion, Optional<HostCapabilities> hostCapabilities) {

  public ResponseHeaders {
    Objects.requireNonNull(protocolVersion, "protocolVersion");
    Objects.requireNonNull(hostCapabilities, "hostCapabilities");
  }

  /** Response headers declaring these capabilities, or none. */
  public static ResponseHeaders of(Optional<HostCapabilities> hostCapabilities) {
    return new ResponseHeaders(ProtocolVersion.V0_1, hostCapabilities);
  }

  /** The capabilities the host declares; empty when it sent no header. */
  public Set<String> declaredCapabilities() {
    return hostCapabilities.map(HostCapabilities::names).orElse(Set.of());
  }

  /** The headers as sent: version, then capabilities if any. */
  public Map<String, String> toMap() {
    Map<String, String> map = new LinkedHashMap<>();
    map.put(JarvisHeaders.PROTOCOL_VERSION, protocolVersion.headerValue());
    hostCapabilities.ifPresent(c -> map.put(JarvisHeaders.HOST_CAPABILITIES, c.headerValue()));
    return Collections.unmodifiableMap(map);
  }

  /** Parses a response's headers, returning every violation found. */
  public static Parsed<ResponseHeaders> parse(Function<String, Optional<String>> lookup) {
    List<ProtocolViolation> violations = new ArrayList<>();
    ProtocolVersion version =
        HeaderText.collect(
            ProtocolVersion.parse(HeaderText.get(lookup, JarvisHeaders.PROTOCOL_VERSION)),
            violations);
    Optional<HostCapabilities> capabilities =
        HeaderText.collect(
            HostCapabilities.parse(HeaderText.get(lookup, JarvisHeaders.HOST_CAPABILITIES)),
            violations);
    if (!violations.isEmpty()) {
      return Parsed.refused(violations);
    }
    return Parsed.accepted(new ResponseHeaders(version, capabilities));
  }
}
