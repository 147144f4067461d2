package dev.jarvis.core;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/** The spec's {@code components.examples}, each paired with the model class it exemplifies. */
final class SpecExamples {

  private SpecExamples() {}

  static JsonNode spec() {
    return JarvisSpec.tree();
  }

  /**
   * Arguments (example name, model class, example value). The spec does not link examples to
   * schemas; its naming does: an example is named after its schema, so the longest schema name that
   * prefixes the example name is its schema.
   */
  static Stream<Arguments> all() {
    JsonNode spec = spec();
    List<String> schemaNames = new ArrayList<>();
    spec.path("components").path("schemas").properties().forEach(e -> schemaNames.add(e.getKey()));
    schemaNames.sort(Comparator.comparingInt(String::length).reversed());
    List<Arguments> out = new ArrayList<>();
    for (Map.Entry<String, JsonNode> example :
        spec.path("components").path("examples").properties()) {
      String name = example.getKey();
      String schema =
          schemaNames.stream()
              .filter(name::startsWith)
              .findFirst()
              .orElseThrow(() -> new IllegalStateException("no schema for example " + name));
      out.add(Arguments.of(name, modelClass(schema), example.getValue().path("value")));
    }
    return out.stream();
  }

  static Class<?> modelClass(String schema) {
    try {
      return Class.forName("dev.jarvis.model." + schema);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("no generated model for schema " + schema, e);
    }
  }
}
