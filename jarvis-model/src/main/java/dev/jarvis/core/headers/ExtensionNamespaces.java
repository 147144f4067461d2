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

  /** The spec's {@code NamespacedExtensions.propertyNames.pattern}: form and reserved words. */
  public static final String PROPERTY_NAME_PATTERN =
      "^(?!.*(password|credential|token|secret|private_key|session_cookie|cookie|api_key"
          + "|access_key|auth_header|oauth|database|billing|runtime|container|deployment"
          + "|model_api_key|raw_prompt|host_account|ui_state))[a-z0-9][a-z0-9-]*(\\.[a-z0-9_-]+)+$";

  private static final Pattern FORM = Pattern.compile(PATTERN);
  private static final Pattern PROPERTY_NAME = Pattern.compile(PROPERTY_NAME_PATTERN);

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
    if (!FORM.matcher(namespace).matches()) {
      return Optional.of(
          "a namespace is lowercase dot-separated segments such as com.example.feature");
    }
    if (!PROPERTY_NAME.matcher(namespace).matches()) {
      return Optional.of("the namespace contains a word reserved for host-private data");
    }
    return Optional.empty();
  }

  /** The header text: the namespaces joined by {@code ", "}. */
  public String headerValue() {
    return String.join(", ", namespaces);
  }
}
