package dev.jarvis.core.validation.internal;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.model.ProtocolErrorId;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Turns the JSON Schema validator's errors for one payload into {@link ProtocolViolation}s: one per
 * problem, each with an {@code error_id}, the JSON Pointer of the offending place and the payload's
 * {@code object_type}.
 */
final class ViolationMapper {

  private final SpecTree spec;
  private final PropertyNameRules names;

  ViolationMapper(SpecTree spec) {
    this.spec = spec;
    this.names = new PropertyNameRules(spec);
  }

  /** Violations of the payload validated against component schema {@code root}, unordered. */
  List<ProtocolViolation> map(String root, JsonNode instance, List<SchemaError> errors) {
    List<Finding> findings = new ArrayList<>(errors.size());
    for (SchemaError error : errors) {
      findings.add(
          new Finding(
              error,
              SchemaTrail.walk(spec, root, error.evaluationPath()),
              InstancePointer.of(error.instancePath())));
    }
    String objectType = objectType(root);
    List<ProtocolViolation> violations = new ArrayList<>();
    for (Finding f : ErrorPruning.prune(findings, instance, spec)) {
      map(f, instance, objectType, violations);
    }
    return violations;
  }

  private void map(Finding f, JsonNode instance, String objectType, List<ProtocolViolation> out) {
    SchemaTrail trail = f.trail();
    switch (f.keyword()) {
      case JarvisKeywords.FORBIDDEN_FIELDS ->
          out.add(
              ProtocolViolation.of(
                  ProtocolErrorId.FORBIDDEN_HOST_PRIVATE_FIELD,
                  objectType,
                  f.atProperty().toString(),
                  "'"
                      + f.property()
                      + "' is a host-private field: the spec forbids it in "
                      + trail.component()));
      case JarvisKeywords.UNIQUE_BY ->
          out.add(
              ProtocolViolation.of(
                  ProtocolErrorId.fromValue(String.valueOf(f.error().arguments().get(0))),
                  objectType,
                  f.at().toString(),
                  "item repeats item "
                      + f.error().arguments().get(1)
                      + " by "
                      + String.join("+", texts(trail.keywordNode()))));
      case "additionalProperties" -> out.add(unknownField(f, objectType));
      case "propertyNames" -> out.add(badName(f, objectType));
      case "required" ->
          out.add(
              violation(
                  f,
                  objectType,
                  trail.component(),
                  f.property(),
                  f.atProperty(),
                  f.error().message()));
      case "not" -> out.addAll(presentButForbidden(f, instance, objectType));
      default ->
          out.add(
              violation(f, objectType, trail.owner(), trail.field(), f.at(), f.error().message()));
    }
  }

  private ProtocolViolation violation(
      Finding f, String objectType, String schema, String field, JsonPointer at, String reason) {
    SchemaTrail trail = f.trail();
    ErrorIdTable.Site site =
        new ErrorIdTable.Site(
            schema, field, f.keyword(), trail.components(), trail.isConditional());
    String because =
        trail.isConditional() ? " (rule applies when " + condition(trail.conditional()) + ")" : "";
    ProtocolErrorId id = ErrorIdTable.lookup(site);
    if (id != ProtocolErrorId.UNKNOWN_STATE) {
      return ProtocolViolation.of(id, objectType, at.toString(), reason + because);
    }
    // The spec has no schema-violation id, so the catch-all unknown_state is used; its catalogue
    // remediation speaks of unknown records, which would send the user the wrong way. Name the
    // field and the rule instead.
    String rule = f.keyword() + " in " + (schema == null ? trail.component() : schema);
    return new ProtocolViolation(
        id,
        objectType,
        at.toString(),
        reason + because + " (rule: " + rule + ")",
        schemaRemediation(f.keyword(), field, at, schema == null ? trail.component() : schema));
  }

  /** What to change in the payload for a broken schema keyword. */
  static String schemaRemediation(String keyword, String field, JsonPointer at, String schema) {
    String where = field == null ? "the " + schema + " record" : "'" + field + "'";
    String pointer = at.toString().isEmpty() ? "/" : at.toString();
    return switch (keyword) {
      case "required" ->
          "Add the required field " + where + " to the " + schema + " record, at " + pointer + ".";
      case "additionalProperties" ->
          "Remove " + where + ": " + schema + " carries only the fields the spec defines.";
      case "enum", "const" ->
          "Send at " + pointer + " one of the values the spec's " + schema + " allows there.";
      case "type" ->
          "Send at " + pointer + " a value of the type the spec's " + schema + " declares.";
      default ->
          "Change the value at "
              + pointer
              + " to meet the spec's "
              + keyword
              + " rule for "
              + where
              + " in "
              + schema
              + ".";
    };
  }

  private ProtocolViolation unknownField(Finding f, String objectType) {
    return names
        .hostPrivate(f, objectType)
        .orElseGet(
            () ->
                violation(
                    f,
                    objectType,
                    f.trail().component(),
                    f.property(),
                    f.atProperty(),
                    f.error().message()));
  }

  private ProtocolViolation badName(Finding f, String objectType) {
    return names
        .hostPrivate(f, objectType)
        .or(() -> names.extension(f, objectType))
        .orElseGet(
            () ->
                violation(
                    f,
                    objectType,
                    f.trail().owner(),
                    f.trail().field(),
                    f.atProperty(),
                    "name '"
                        + f.property()
                        + "' is not a portable name (lower-case letters, digits, . _ : -)"));
  }

  /** A failed {@code not}: one violation per property it forbids that the payload carries. */
  private List<ProtocolViolation> presentButForbidden(
      Finding f, JsonNode instance, String objectType) {
    JsonNode object = instance.at(f.at());
    List<ProtocolViolation> out = new ArrayList<>();
    for (String name : requiredNames(f.trail().keywordNode(), new LinkedHashSet<>())) {
      if (object.has(name)) {
        out.add(
            violation(
                f,
                objectType,
                f.trail().component(),
                name,
                f.at().appendProperty(name),
                "'" + name + "' must not be present"));
      }
    }
    if (out.isEmpty()) {
      out.add(violation(f, objectType, f.trail().component(), null, f.at(), f.error().message()));
    }
    return out;
  }

  /** The property names a {@code not} schema's {@code required} lists name, through anyOf/allOf. */
  private static Set<String> requiredNames(JsonNode schema, Set<String> into) {
    into.addAll(texts(schema.path("required")));
    for (String combinator : List.of("anyOf", "allOf", "oneOf")) {
      schema.path(combinator).forEach(branch -> requiredNames(branch, into));
    }
    return into;
  }

  /** {@code status is takeover}, {@code decision is one of [approve, narrow]}… */
  private static String condition(SchemaTrail.Conditional conditional) {
    List<String> parts = new ArrayList<>();
    for (Map.Entry<String, JsonNode> p : conditional.ifSchema().path("properties").properties()) {
      JsonNode test = p.getValue();
      if (test.has("const")) {
        parts.add(p.getKey() + " is " + test.get("const").asText());
      } else if (test.has("enum")) {
        parts.add(p.getKey() + " is one of " + texts(test.get("enum")));
      } else {
        parts.add(p.getKey() + " matches " + test);
      }
    }
    return String.join(" and ", parts);
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(item -> out.add(item.asText()));
    return out;
  }

  /** {@code PolicyDecision} → {@code policy_decision}: the spec's spelling of object types. */
  static String objectType(String schemaName) {
    return schemaName.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
  }
}
