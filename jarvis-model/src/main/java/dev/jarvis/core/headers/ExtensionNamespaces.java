package dev.jarvis.core.headers;

import dev.jarvis.model.ProtocolErrorId;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * {@code Jarvis-Extensions}, optional on reads: the extension namespaces the caller requests, as a
 * comma-separated list, each entry trimmed; a repeated namespace counts once.
 *
 * <p>A namespace is lowercase dot-separated segments ({@value #PATTERN}, e.g. {@code
 * com.example.feature}). It must also be usable as a {@code NamespacedExtensions} property name, so
 * a namespace containing a word the spec reserves for host-private data (the negative lookahead of
 * {@link #PROPERTY_NAME_PATTERN}) is refused too.
 *
 * <p>Present but empty, an empty entry, or a bad namespace is {@code invalid_extension_namespace},
 * one violation per bad entry, the reason saying which rule broke.
 *
 * @param namespaces the namespaces, at least one, in the order sent (unmodifiable)
 */
public record ExtensionNamespaces(Set<String> namespaces) {

  /** The form of a namespace. */
  public static final String PATTERN = "^[a-z0-9][a-z0-9-]*(\\.[a-z0-9_-]+)+$";

  /** The words the spec reserves for host-private data, as regular-expression alternatives. */
  private static final String RESERVED_WORDS =
      "password|credential|token|secret|private_key|session_cookie|cookie|api_key"
          + "|access_key|auth_header|oauth|database|billing|runtime|container|deployment"
          + "|model_api_key|raw_prompt|host_account|ui_state";

  /** The spec's {@code NamespacedExtensions.propertyNames.pattern}: form and reserved words. */
  public static final String PROPERTY_NAME_PATTERN =
      "^(?!.*(" + RESERVED_WORDS + "))[a-z0-9][a-z0-9-]*(\\.[a-z0-9_-]+)+$";

  /**
   * The reserved words of {@link #PROPERTY_NAME_PATTERN}'s lookahead, found anywhere in a name.
   * Matched apart from the form: java.util.regex recurses once per repetition of {@code
   * (\.[a-z0-9_-]+)+}, and a namespace of a few thousand segments overflowed the stack.
   */
  private static final Pattern RESERVED_WORD = Pattern.compile(RESERVED_WORDS);

  public ExtensionNamespaces {
    if (namespaces.isEmpty()) {
      throw new IllegalArgumentException("Jarvis-Extensions needs at least one namespace");
    }
    Set<String> copy = new LinkedHashSet<>();
    for (String namespace : namespaces) {
      Optional<String> defect = defect(namespace);
      if (defect.isPresent()) {
        throw new IllegalArgumentException("invalid extension namespace: " + defect.get());
      }
      copy.add(namespace);
    }
    namespaces = Collections.unmodifiableSet(copy);
  }

  /** The given namespaces. */
  public static ExtensionNamespaces of(String... namespaces) {
    return new ExtensionNamespaces(new LinkedHashSet<>(Arrays.asList(namespaces)));
  }

  /** Parses the header text; absent ({@code raw} empty) is an accepted empty result. */
  public static Parsed<Optional<ExtensionNamespaces>> parse(Optional<String> raw) {
    return HeaderText.list(
            raw,
            ProtocolErrorId.INVALID_EXTENSION_NAMESPACE,
            JarvisHeaders.EXTENSIONS,
            ExtensionNamespaces::defect)
        .map(names -> names.map(ExtensionNamespaces::new));
  }

  private static Optional<String> defect(String namespace) {
    if (!hasForm(namespace)) {
      return Optional.of(
          "a namespace is lowercase dot-separated segments such as com.example.feature");
    }
    if (RESERVED_WORD.matcher(namespace).find()) {
      return Optional.of("the namespace contains a word reserved for host-private data");
    }
    return Optional.empty();
  }

  /**
   * Whether {@code namespace} matches {@link #PATTERN}, checked in one pass without a regular
   * expression, so that its length cannot exhaust the stack: a first segment of {@code [a-z0-9-]}
   * starting with {@code [a-z0-9]}, then at least one segment of {@code [a-z0-9_-]}, each after a
   * dot and none empty.
   */
  static boolean hasForm(String namespace) {
    int n = namespace.length();
    if (n == 0 || !isLowerAlnum(namespace.charAt(0))) {
      return false;
    }
    int segments = 1;
    int segmentLength = 1;
    for (int i = 1; i < n; i++) {
      char c = namespace.charAt(i);
      if (c == '.') {
        if (segmentLength == 0) {
          return false;
        }
        segments++;
        segmentLength = 0;
      } else if (isLowerAlnum(c) || c == '-' || c == '_' && segments > 1) {
        segmentLength++;
      } else {
        return false;
      }
    }
    return segments > 1 && segmentLength > 0;
  }

  private static boolean isLowerAlnum(char c) {
    return c >= 'a' && c <= 'z' || c >= '0' && c <= '9';
  }

  /** The header text: the namespaces joined by {@code ", "}. */
  public String headerValue() {
    return String.join(", ", namespaces);
  }
}
