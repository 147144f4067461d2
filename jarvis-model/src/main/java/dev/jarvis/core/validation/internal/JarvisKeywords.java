package dev.jarvis.core.validation.internal;

import java.util.Set;

/** The spec's {@code x-jarvis-*} schema keywords, and which of them validation acts on. */
final class JarvisKeywords {

  /**
   * Host-private names that must never appear at the level of the object whose schema lists them.
   */
  static final String FORBIDDEN_FIELDS = "x-jarvis-forbidden-fields";

  /** No two items of the array may share the listed fields. */
  static final String UNIQUE_BY = "x-jarvis-unique-by";

  /** The {@code error_id} of a {@link #UNIQUE_BY} breach, beside it in the same schema. */
  static final String REJECTION_ID = "x-jarvis-duplicate-rejection-id";

  /** Rules about state across records, which a single payload cannot show: an annotation here. */
  static final String INVARIANTS = "x-jarvis-invariants";

  /** The {@code x-} keywords validation knows what to do with. */
  static final Set<String> KNOWN = Set.of(FORBIDDEN_FIELDS, UNIQUE_BY, REJECTION_ID, INVARIANTS);

  private JarvisKeywords() {}
}
