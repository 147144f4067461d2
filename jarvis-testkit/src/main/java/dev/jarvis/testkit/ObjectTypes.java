package dev.jarvis.testkit;

/** The spec's snake_case {@code object_type} of a component schema name. */
final class ObjectTypes {

  private ObjectTypes() {}

  /** {@code PolicyDecision} → {@code policy_decision}. */
  static String of(String schemaName) {
    return schemaName.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(java.util.Locale.ROOT);
  }
}
