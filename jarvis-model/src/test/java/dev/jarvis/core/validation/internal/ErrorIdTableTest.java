package dev.jarvis.core.validation.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.model.ProtocolErrorId;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The error-id table still names what the spec has: a renamed field cannot fall through. */
class ErrorIdTableTest {

  private static final SpecTree SPEC = new SpecTree(JarvisSpec.tree());

  static Stream<ErrorIdTable.Row> rows() {
    return ErrorIdTable.rows().stream();
  }

  @ParameterizedTest(name = "row {0} names a schema and field the spec has")
  @MethodSource("rows")
  void rowNamesExistingSchemaAndField(ErrorIdTable.Row row) {
    if (!row.schema().equals(ErrorIdTable.ANY)) {
      assertTrue(SPEC.hasSchema(row.schema()), row.schema());
    }
    if (!row.field().equals(ErrorIdTable.ANY)) {
      List<String> schemas =
          row.schema().equals(ErrorIdTable.ANY) ? SPEC.schemaNames() : List.of(row.schema());
      assertTrue(
          schemas.stream().anyMatch(s -> SPEC.schema(s).path("properties").has(row.field())),
          () -> row.field() + " is not a property of " + schemas);
    }
    if (!row.keyword().equals(ErrorIdTable.ANY)) {
      assertTrue(keywordsUsed().contains(row.keyword()), row.keyword());
    }
  }

  @ParameterizedTest(name = "conditional row {0} names a schema with an if/then rule")
  @MethodSource("rows")
  void conditionalRowNamesSchemaWithIfThen(ErrorIdTable.Row row) {
    if (row.when() == ErrorIdTable.When.CONDITIONAL && !row.schema().equals(ErrorIdTable.ANY)) {
      assertTrue(SPEC.schema(row.schema()).path("allOf").findValue("if") != null, row.schema());
    }
  }

  @Test
  void theLastRowCatchesEverything() {
    ErrorIdTable.Site nowhere = new ErrorIdTable.Site("X", "y", "z", List.of("X"), false);
    assertEquals(ProtocolErrorId.UNKNOWN_STATE, ErrorIdTable.lookup(nowhere));
  }

  @Test
  void everyXKeywordOfTheSpecIsKnown() {
    Set<String> unknown = new TreeSet<>(JarvisDialect.extensionKeywords(SPEC));
    unknown.removeAll(JarvisKeywords.KNOWN);
    assertEquals(
        Set.of(),
        unknown,
        "decide how to enforce these, then add them to JarvisKeywords and SchemaCompiler");
  }

  /** Every key used anywhere in the component schemas. */
  private static Set<String> keywordsUsed() {
    Set<String> keys = new TreeSet<>();
    for (String name : SPEC.schemaNames()) {
      collect(SPEC.schema(name), keys);
    }
    return keys;
  }

  private static void collect(JsonNode node, Set<String> keys) {
    if (node.isObject()) {
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        keys.add(e.getKey());
        collect(e.getValue(), keys);
      }
    } else if (node.isArray()) {
      node.forEach(item -> collect(item, keys));
    }
  }
}
