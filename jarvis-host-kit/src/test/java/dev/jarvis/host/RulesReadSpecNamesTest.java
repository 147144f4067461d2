package dev.jarvis.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Issue 24 item 2, kept so by the build: the host kit reads and writes the fields of protocol
 * records through the names the generator made from the spec ({@code WorkSession.JSON_PROPERTY_*}
 * in {@code dev.jarvis.model}), never through string literals, so that a field renamed or removed
 * in the spec fails compilation where a rule reads it instead of reading a missing node.
 */
class RulesReadSpecNamesTest {

  /** Outside the rule: the credentials file is the host's own format, not the spec's. */
  private static final Set<String> NOT_SPEC_RECORDS = Set.of("Credentials.java");

  /** A JSON field looked up or written by a snake_case literal: {@code .path("lock_epoch")}. */
  private static final Pattern LITERAL_FIELD =
      Pattern.compile(
          "\\.(path|get|has|hasNonNull|put|putArray|putObject|set|remove|with|withArray|required"
              + "|findValue)\\(\\s*\"[a-z][a-z0-9_]*\"");

  private static final Pattern SPEC_NAME =
      Pattern.compile("\\b([A-Z]\\w*)\\.(JSON_PROPERTY_\\w+)\\b");

  @Test
  void noRuleLooksAFieldUpByAStringLiteral() throws IOException {
    assertEquals(
        List.of(),
        SourceScan.linesMatching(LITERAL_FIELD, NOT_SPEC_RECORDS),
        "read the field through the generated JSON_PROPERTY_ name");
  }

  @Test
  void theSourceScanFindsALiteralLookupWhenThereIsOne() {
    // Positive control: the pattern the build check relies on does flag the old style.
    assertTrue(
        LITERAL_FIELD.matcher("long epoch = takeover.path(\"lock_epoch\").asLong();").find());
    assertTrue(LITERAL_FIELD.matcher("body.put(\"status\", status.getValue());").find());
    assertTrue(
        !LITERAL_FIELD.matcher("takeover.path(Takeover.JSON_PROPERTY_LOCK_EPOCH)").find()
            && !LITERAL_FIELD.matcher("headers.put(\"Content-Type\", json)").find());
  }

  /**
   * Every generated name the host kit uses is a property of that schema in the committed spec (as
   * the jar carries it): the names follow the spec, so a rename there renames, or removes, the
   * constant, and the rule that reads it no longer compiles.
   */
  @Test
  void everySpecNameTheRulesUseIsAPropertyOfItsSchemaInTheSpec() throws Exception {
    JsonNode schemas = JarvisSpec.tree().path("components").path("schemas");
    Set<String> used = new TreeSet<>();
    List<String> unknown = new ArrayList<>();
    for (Path file : SourceScan.files(NOT_SPEC_RECORDS)) {
      Matcher m = SPEC_NAME.matcher(Files.readString(file));
      while (m.find()) {
        String schema = m.group(1);
        String property =
            (String) Class.forName("dev.jarvis.model." + schema).getField(m.group(2)).get(null);
        used.add(schema + "." + property);
        if (!schemas.path(schema).path("properties").has(property)) {
          unknown.add(schema + "." + property);
        }
      }
    }
    assertEquals(List.of(), unknown);
    assertTrue(used.size() > 60, () -> "the rules read only " + used);
  }
}
