package dev.jarvis.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One Java type per protocol type across the generated records, read off the spec itself: every
 * property of every schema the generator makes a record of, its type resolved through {@code $ref}
 * and array items, against the Java type of the record's getter. A record that maps the same
 * protocol type differently (an {@code Integer} revision beside a {@code Long} sequence, a protocol
 * version that is an enum in one record and a {@code String} in another) fails here.
 */
class GeneratedRecordTypesTest {

  private static final String MODEL_PACKAGE = "dev.jarvis.model.";
  private static final JsonNode SCHEMAS = JarvisSpec.tree().path("components").path("schemas");

  /** A property of a record and the protocol type its schema gives it. */
  record Property(String schema, String name, JsonNode type) {
    @Override
    public String toString() {
      return schema + "." + name;
    }
  }

  static Stream<Property> integers() {
    return properties().filter(p -> "integer".equals(p.type().path("type").asText()));
  }

  static Stream<Property> timestamps() {
    return properties().filter(p -> "date-time".equals(p.type().path("format").asText()));
  }

  static Stream<Property> protocolVersions() {
    return properties().filter(p -> p.name().equals("protocol_version"));
  }

  static Stream<Property> namedEnums() {
    return properties().filter(p -> p.type().has("$ref") && resolve(p.type()).has("enum"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("integers")
  void everyIntegerIsALong(Property property) {
    assertEquals(Long.class, javaType(property));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("timestamps")
  void everyTimestampIsAnOffsetDateTime(Property property) {
    assertEquals(OffsetDateTime.class, javaType(property));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("protocolVersions")
  void everyProtocolVersionIsAString(Property property) {
    assertEquals(String.class, javaType(property));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("namedEnums")
  void everyPropertyOfANamedEnumIsThatEnum(Property property) throws ClassNotFoundException {
    String enumName = property.type().path("$ref").asText().replaceAll(".*/", "");
    assertEquals(Class.forName(MODEL_PACKAGE + enumName), javaType(property));
  }

  @Test
  void theSpecHasEachOfTheseProtocolTypesMoreThanOnce() {
    // Otherwise the parameterised tests above would pass by finding nothing to check.
    assertTrue(integers().count() > 1);
    assertTrue(timestamps().count() > 1);
    assertTrue(protocolVersions().count() > 1);
    assertTrue(namedEnums().count() > 1);
  }

  @Test
  void noRecordKeepsANestedEnumForAConst() {
    // A string const is a rule the validator enforces, not a type (docs/generation.md).
    List<String> constEnums =
        properties()
            .filter(p -> p.type().has("const"))
            .map(p -> p + " -> " + javaType(p).getName())
            .filter(described -> described.contains("$"))
            .toList();
    assertTrue(properties().anyMatch(p -> p.type().has("const")), "the spec has consts");
    assertEquals(List.of(), constEnums);
  }

  /**
   * Every top-level property of every schema that is generated as a record: objects with
   * properties, {@code PortableValue} aside (it stays a JSON tree), each property's schema resolved
   * through {@code $ref}s to a type and through arrays to their items.
   */
  private static Stream<Property> properties() {
    List<Property> all = new ArrayList<>();
    for (Map.Entry<String, JsonNode> schema : SCHEMAS.properties()) {
      if (!schema.getValue().has("properties") || schema.getKey().equals("PortableValue")) {
        continue;
      }
      for (Map.Entry<String, JsonNode> property :
          schema.getValue().path("properties").properties()) {
        all.add(new Property(schema.getKey(), property.getKey(), element(property.getValue())));
      }
    }
    return all.stream();
  }

  /** The schema of the value, or of an array's items; a {@code $ref} to a record or enum kept. */
  private static JsonNode element(JsonNode schema) {
    JsonNode resolved = resolve(schema);
    if ("array".equals(resolved.path("type").asText())) {
      return element(resolved.path("items"));
    }
    if (schema.has("$ref") && (resolved.has("enum") || resolved.has("properties"))) {
      return schema;
    }
    return resolved;
  }

  private static JsonNode resolve(JsonNode schema) {
    JsonNode resolved = schema;
    while (resolved.has("$ref")) {
      resolved = SCHEMAS.path(resolved.path("$ref").asText().replaceAll(".*/", ""));
    }
    return resolved;
  }

  /** The Java type of the property in its record (an array's element type for arrays). */
  private static Class<?> javaType(Property property) {
    Class<?> record;
    try {
      record = Class.forName(MODEL_PACKAGE + property.schema());
    } catch (ClassNotFoundException e) {
      throw new AssertionError("no record generated for " + property.schema(), e);
    }
    Method getter =
        Arrays.stream(record.getMethods())
            .filter(m -> m.getParameterCount() == 0)
            .filter(m -> jsonName(m).filter(property.name()::equals).isPresent())
            .findFirst()
            .orElseThrow(() -> new AssertionError("no getter for " + property));
    Type type = getter.getGenericReturnType();
    if (type instanceof ParameterizedType container) {
      type = container.getActualTypeArguments()[0];
    }
    return (Class<?>) type;
  }

  private static Optional<String> jsonName(Method method) {
    return Optional.ofNullable(method.getAnnotation(JsonProperty.class)).map(JsonProperty::value);
  }
}
