package dev.jarvis.core.headers;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Case-insensitive header lookups, as {@link MutationHeaders#parse} and {@link ReadHeaders#parse}
 * take them. Field lines of the same name (in any case) are combined into one value joined by
 * {@code ", "}, as RFC 9110 §5.3 does. For a list header that is the list; for a single-valued
 * header the combined text fails that header's syntax check (except opaque text such as the
 * idempotency key, which a receiver that cares must refuse on repeated lines itself).
 */
public final class HeaderLookup {

  private HeaderLookup() {}

  /** A lookup over single-valued entries. */
  public static Function<String, Optional<String>> of(Map<String, String> headers) {
    TreeMap<String, String> byName = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.forEach(
        (name, value) -> {
          if (name != null && value != null) {
            byName.merge(name, value, (a, b) -> a + ", " + b);
          }
        });
    return name -> Optional.ofNullable(byName.get(name));
  }

  /**
   * A lookup over multi-valued entries, such as {@code java.net.http.HttpHeaders.map()}; a name
   * with no values is absent.
   */
  public static Function<String, Optional<String>> ofLists(
      Map<String, ? extends List<String>> headers) {
    TreeMap<String, String> byName = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.forEach(
        (name, values) -> {
          if (name != null) {
            joined(values).ifPresent(v -> byName.merge(name, v, (a, b) -> a + ", " + b));
          }
        });
    return name -> Optional.ofNullable(byName.get(name));
  }

  /**
   * A lookup over a runtime's own header access ({@code HeaderMap::get} in Undertow, {@code
   * HttpServletRequest.getHeaders} as a list, a JAX-RS {@code MultivaluedMap::get}): {@code
   * linesByName} answers the field lines of a name, looked up case-insensitively by the runtime,
   * {@code null} or empty for none; they are combined as everywhere here. Nothing is copied: each
   * lookup asks the runtime.
   */
  public static Function<String, Optional<String>> ofLines(
      Function<String, ? extends Collection<String>> linesByName) {
    return name -> joined(linesByName.apply(name));
  }

  /** Field lines of one name combined into one value, RFC 9110 §5.3; empty for none. */
  private static Optional<String> joined(Collection<String> lines) {
    if (lines == null || lines.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(lines.size() == 1 ? lines.iterator().next() : String.join(", ", lines));
  }
}
