package dev.jarvis.core.validation.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.model.ProtocolErrorId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Compiles the spec's component schemas into {@link Check}s, once: every keyword is read here, and
 * checking a payload reads no schema. A keyword the compiler does not know fails the compilation
 * rather than being ignored, so a spec that starts using one cannot be half enforced.
 *
 * <p>The spec shipped in the jar is compiled by the build: {@code CheckGraphSource}
 * (src/build/java) runs this compiler and writes the graph as Java source ({@link
 * PrecompiledSpec}). At run time it compiles only other documents ({@code
 * PayloadValidator.forSpec(JsonNode)}), and the tests hold the generated graph to the one it
 * builds.
 */
final class SchemaCompiler {

  /** Keywords that describe and never constrain. */
  private static final Set<String> ANNOTATIONS =
      Set.of(
          "description",
          "title",
          "default",
          "example",
          "examples",
          "deprecated",
          "readOnly",
          "writeOnly",
          "$comment",
          "else");

  private final SpecTree spec;
  private final Map<String, KeywordChecks.Ref> components = new HashMap<>();
  private final List<String> pending = new ArrayList<>();

  SchemaCompiler(SpecTree spec) {
    this.spec = spec;
  }

  /**
   * The component schema compiled, with every component it reaches (each compiled once, shared by
   * every schema that reaches it). Answers only when all of them are resolved.
   *
   * @return empty if the spec has no such component
   */
  synchronized Optional<Check> compile(String name) {
    if (!spec.hasSchema(name)) {
      return Optional.empty();
    }
    KeywordChecks.Ref root = component(name);
    resolvePending();
    return Optional.of(root::checkTarget);
  }

  /**
   * Every component schema compiled, by name in document order: the whole graph, as the build
   * writes it out ({@code src/build/java/.../CheckGraphSource}).
   */
  synchronized Map<String, KeywordChecks.Ref> compileAll() {
    Map<String, KeywordChecks.Ref> all = new LinkedHashMap<>();
    for (String name : spec.schemaNames()) {
      all.put(name, component(name));
    }
    resolvePending();
    return all;
  }

  private void resolvePending() {
    while (!pending.isEmpty()) {
      String next = pending.remove(pending.size() - 1);
      components.get(next).resolve(schema(spec.schema(next)));
    }
  }

  private KeywordChecks.Ref component(String name) {
    KeywordChecks.Ref ref = components.get(name);
    if (ref == null) {
      if (!spec.hasSchema(name)) {
        throw new IllegalStateException("$ref to a missing component schema " + name);
      }
      ref = new KeywordChecks.Ref();
      components.put(name, ref);
      pending.add(name);
    }
    return ref;
  }

  private Check schema(JsonNode schema) {
    if (schema.isBoolean()) {
      throw new IllegalStateException("boolean schemas are not used by the spec");
    }
    List<Check> keywords = new ArrayList<>();
    if (schema.has("$ref")) {
      keywords.add(component(SpecTree.componentOf(schema.get("$ref").asText())));
    }
    if (schema.has("type")) {
      keywords.add(
          new KeywordChecks.Type(KeywordChecks.JsonType.named(schema.get("type").asText())));
    }
    if (schema.has("properties") || schema.has("additionalProperties")) {
      keywords.add(properties(schema));
    }
    for (Map.Entry<String, JsonNode> keyword : schema.properties()) {
      Check check = keyword(keyword.getKey(), keyword.getValue(), schema);
      if (check != null) {
        keywords.add(check);
      }
    }
    return keywords.size() == 1
        ? keywords.get(0)
        : new KeywordChecks.AllKeywords(keywords.toArray(Check[]::new));
  }

  /**
   * The check of one keyword; {@code null} for those compiled together elsewhere or annotations.
   */
  private Check keyword(String name, JsonNode value, JsonNode schema) {
    switch (name) {
      case "$ref", "type", "properties", "additionalProperties", "then" -> {
        if (name.equals("type") && !value.isTextual()) {
          throw new IllegalStateException("type lists are not used by the spec: " + value);
        }
        return null;
      }
      case "required" -> {
        return new KeywordChecks.Required(texts(value).toArray(String[]::new));
      }
      case "propertyNames" -> {
        return new KeywordChecks.PropertyNames(schema(value));
      }
      case "items" -> {
        return new KeywordChecks.Items(schema(value));
      }
      case "minItems" -> {
        return new KeywordChecks.MinItems(value.intValue());
      }
      case "uniqueItems" -> {
        return value.asBoolean() ? new KeywordChecks.UniqueItems() : null;
      }
      case "enum" -> {
        Set<JsonNode> values = new HashSet<>();
        value.forEach(values::add);
        return new KeywordChecks.Enum(Set.copyOf(values), enumText(value));
      }
      case "const" -> {
        return new KeywordChecks.Const(value);
      }
      case "minLength" -> {
        return new KeywordChecks.MinLength(value.intValue());
      }
      case "maxLength" -> {
        return new KeywordChecks.MaxLength(value.intValue());
      }
      case "pattern" -> {
        return KeywordChecks.Matches.of(value.asText());
      }
      case "minimum" -> {
        return new KeywordChecks.Minimum(value.decimalValue(), value.asText());
      }
      case "maximum" -> {
        return new KeywordChecks.Maximum(value.decimalValue(), value.asText());
      }
      case "format" -> {
        if (!value.asText().equals("date-time")) {
          throw new IllegalStateException("format " + value.asText() + " is not used by the spec");
        }
        return new KeywordChecks.DateTime();
      }
      case "allOf" -> {
        return new KeywordChecks.AllOf(branches(value), indexes(value.size()));
      }
      case "anyOf" -> {
        return new KeywordChecks.AnyOf(branches(value), indexes(value.size()));
      }
      case "if" -> {
        return schema.has("then")
            ? new KeywordChecks.IfThen(schema(value), schema(schema.get("then")))
            : null;
      }
      case "not" -> {
        return new KeywordChecks.Not(schema(value), value.toString());
      }
      case JarvisKeywords.FORBIDDEN_FIELDS -> {
        return new KeywordChecks.ForbiddenFields(texts(value).toArray(String[]::new));
      }
      case JarvisKeywords.UNIQUE_BY -> {
        JsonNode rejectionId = schema.path(JarvisKeywords.REJECTION_ID);
        if (!rejectionId.isTextual()) {
          throw new IllegalStateException(
              "x-jarvis-unique-by without " + JarvisKeywords.REJECTION_ID);
        }
        // Fails when compiling, not when checking, if the spec names an id it does not define.
        return new KeywordChecks.UniqueBy(
            texts(value).toArray(String[]::new), ProtocolErrorId.fromValue(rejectionId.asText()));
      }
      default -> {
        if (ANNOTATIONS.contains(name) || name.startsWith("x-")) {
          return null;
        }
        throw new IllegalStateException("schema keyword " + name + " is not supported");
      }
    }
  }

  private Check properties(JsonNode schema) {
    Map<String, Check> declared = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> property : schema.path("properties").properties()) {
      declared.put(property.getKey(), schema(property.getValue()));
    }
    JsonNode additional = schema.path("additionalProperties");
    Check others;
    if (additional.isMissingNode() || (additional.isBoolean() && additional.asBoolean())) {
      others = null;
    } else if (additional.isBoolean()) {
      others = KeywordChecks.Properties.REFUSED;
    } else {
      others = schema(additional);
    }
    return new KeywordChecks.Properties(Map.copyOf(declared), others, schema.has("properties"));
  }

  private Check[] branches(JsonNode array) {
    Check[] out = new Check[array.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = schema(array.get(i));
    }
    return out;
  }

  private static String[] indexes(int count) {
    String[] out = new String[count];
    for (int i = 0; i < count; i++) {
      out[i] = Integer.toString(i);
    }
    return out;
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(item -> out.add(item.asText()));
    return out;
  }

  /** {@code ["a", "b"]}: how the enumeration is shown in a message. */
  private static String enumText(JsonNode values) {
    List<String> out = new ArrayList<>();
    values.forEach(v -> out.add(v.toString()));
    return "[" + String.join(", ", out) + "]";
  }
}
