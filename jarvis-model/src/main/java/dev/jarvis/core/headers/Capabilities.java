package dev.jarvis.core.headers;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/** The syntax of capability names, shared by the required and the host capability headers. */
final class Capabilities {

  /**
   * A capability name is an RFC 9110 {@code token}: the spec defines no narrower form, and a token
   * is what an HTTP list element can be without quoting.
   */
  static final Pattern NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]+");

  private Capabilities() {}

  static Optional<String> defect(String name) {
    return NAME.matcher(name).matches()
        ? Optional.empty()
        : Optional.of("a capability name is an HTTP token: letters, digits and !#$%&'*+-.^_`|~");
  }

  /** An unmodifiable, ordered copy of at least one valid name; repeated names count once. */
  static Set<String> copyOf(Collection<String> names, String what) {
    if (names.isEmpty()) {
      throw new IllegalArgumentException(what + " needs at least one name");
    }
    Set<String> copy = new LinkedHashSet<>();
    for (String name : names) {
      Optional<String> defect = defect(name);
      if (defect.isPresent()) {
        throw new IllegalArgumentException("invalid capability name: " + defect.get());
      }
      copy.add(name);
    }
    return Collections.unmodifiableSet(copy);
  }
}
