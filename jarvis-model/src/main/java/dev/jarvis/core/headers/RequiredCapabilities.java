package dev.jarvis.core.headers;

import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.model.ProtocolErrorId;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * {@code Jarvis-Required-Capabilities}, optional on reads: the capabilities the caller requires of
 * the host, as a comma-separated list of capability names (RFC 9110 {@code token}s), each trimmed.
 * Names are case-sensitive; a repeated name counts once.
 *
 * <p>A header that is present but empty, has an empty entry ({@code a,,b}, {@code a,}) or an entry
 * that is not a token is refused with {@code unsupported_capability} (the spec's id for this
 * header), one violation per bad entry. This is stricter than RFC 9110 §5.6.1, which lets a
 * recipient skip empty entries: here an empty entry is a sender's mistake worth reporting.
 *
 * @param names the required capabilities, at least one, in the order sent (unmodifiable)
 */
public record RequiredCapabilities(Set<String> names) {

  public RequiredCapabilities {
    names = Capabilities.copyOf(names, "Jarvis-Required-Capabilities");
  }

  /** The given names. */
  public static RequiredCapabilities of(String... names) {
    return new RequiredCapabilities(new LinkedHashSet<>(Arrays.asList(names)));
  }

  /** Parses the header text; absent ({@code raw} empty) is an accepted empty result. */
  public static Parsed<Optional<RequiredCapabilities>> parse(Optional<String> raw) {
    return HeaderText.list(
            raw,
            ProtocolErrorId.UNSUPPORTED_CAPABILITY,
            JarvisHeaders.REQUIRED_CAPABILITIES,
            Capabilities::defect)
        .map(names -> names.map(RequiredCapabilities::new));
  }

  /** The required names that {@code declared} (the host's capabilities) lacks, in order. */
  public Set<String> unsupportedBy(Set<String> declared) {
    Set<String> missing = new LinkedHashSet<>(names);
    missing.removeAll(declared);
    return Collections.unmodifiableSet(missing);
  }

  /**
   * An {@code unsupported_capability} violation naming the required capabilities that {@code
   * declared} lacks, if any.
   */
  public Optional<ProtocolViolation> checkSupportedBy(Set<String> declared) {
    Set<String> missing = unsupportedBy(declared);
    if (missing.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        ProtocolViolation.header(
            ProtocolErrorId.UNSUPPORTED_CAPABILITY,
            JarvisHeaders.REQUIRED_CAPABILITIES,
            "The host does not support the required "
                + (missing.size() == 1 ? "capability " : "capabilities ")
                + String.join(", ", missing)
                + "."));
  }

  /** The header text: the names joined by {@code ", "}. */
  public String headerValue() {
    return String.join(", ", names);
  }
}
