package dev.jarvis.core.headers;

import dev.jarvis.model.ProtocolErrorId;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * {@code Jarvis-Host-Capabilities}, optional on responses: the optional capabilities the host
 * declares. Same syntax and refusals as {@link RequiredCapabilities} ({@code
 * unsupported_capability}); a host that sends no header declares none.
 *
 * @param names the declared capabilities, at least one, in the order sent (unmodifiable)
 */
public record HostCapabilities(Set<String> names) {

  public HostCapabilities {
    names = Capabilities.copyOf(names, "Jarvis-Host-Capabilities");
  }

  /** The given names. */
  public static HostCapabilities of(String... names) {
    return new HostCapabilities(new LinkedHashSet<>(Arrays.asList(names)));
  }

  /** Parses the header text; absent ({@code raw} empty) is an accepted empty result. */
  public static Parsed<Optional<HostCapabilities>> parse(Optional<String> raw) {
    return HeaderText.list(
            raw,
            ProtocolErrorId.UNSUPPORTED_CAPABILITY,
            JarvisHeaders.HOST_CAPABILITIES,
            Capabilities::defect)
        .map(names -> names.map(HostCapabilities::new));
  }

  /** The header text: the names joined by {@code ", "}. */
  public String headerValue() {
    return String.join(", ", names);
  }
}
