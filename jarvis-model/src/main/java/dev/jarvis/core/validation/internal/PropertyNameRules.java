package dev.jarvis.core.validation.internal;

import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.model.ProtocolErrorId;
import java.util.Optional;

/**
 * What a badly named property is reported as, before the error-id table is asked: a name holding a
 * host-private word is {@code forbidden_host_private_field} wherever it is; an extension name that
 * is a core field of the record the extensions belong to is {@code extension_core_field_override};
 * any other bad extension name is {@code invalid_extension_namespace}.
 */
final class PropertyNameRules {

  private final SpecTree spec;
  private final HostPrivateWords hostPrivateWords;

  PropertyNameRules(SpecTree spec) {
    this.spec = spec;
    this.hostPrivateWords = HostPrivateWords.fromSpec(spec);
  }

  /** For a name the payload should not carry (unknown field, or refused by propertyNames). */
  Optional<ProtocolViolation> hostPrivate(Finding f, String objectType) {
    return hostPrivateWords
        .foundIn(f.property())
        .map(
            word ->
                ProtocolViolation.of(
                    ProtocolErrorId.FORBIDDEN_HOST_PRIVATE_FIELD,
                    objectType,
                    f.atProperty().toString(),
                    "'" + f.property() + "' names host-private data ('" + word + "')"));
  }

  /** For a name refused by {@code propertyNames}: the extension rules, if it is an extension. */
  Optional<ProtocolViolation> extension(Finding f, String objectType) {
    if (!f.trail().component().equals(HostPrivateWords.EXTENSIONS_SCHEMA)) {
      return Optional.empty();
    }
    String name = f.property();
    String record = f.trail().enclosing();
    if (spec.schema(record).path("properties").has(name)) {
      return Optional.of(
          ProtocolViolation.of(
              ProtocolErrorId.EXTENSION_CORE_FIELD_OVERRIDE,
              objectType,
              f.atProperty().toString(),
              "extension '" + name + "' overrides core field '" + name + "' of " + record));
    }
    return Optional.of(
        ProtocolViolation.of(
            ProtocolErrorId.INVALID_EXTENSION_NAMESPACE,
            objectType,
            f.atProperty().toString(),
            "extension '" + name + "' is not namespaced (lower-case, dotted: acme.review-hint)"));
  }
}
