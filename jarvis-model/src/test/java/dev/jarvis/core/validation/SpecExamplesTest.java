package dev.jarvis.core.validation;

import static dev.jarvis.core.validation.Expect.VALIDATOR;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class SpecExamplesTest {

  /**
   * (example name, schema name, example value). An example is named after its schema: the longest
   * schema name that prefixes the example name.
   */
  static Stream<Arguments> examples() {
    JsonNode components = JarvisSpec.tree().path("components");
    List<String> schemas = new ArrayList<>(VALIDATOR.schemaNames());
    schemas.sort(Comparator.comparingInt(String::length).reversed());
    List<Arguments> out = new ArrayList<>();
    for (Map.Entry<String, JsonNode> e : components.path("examples").properties()) {
      String schema = schemas.stream().filter(e.getKey()::startsWith).findFirst().orElseThrow();
      out.add(Arguments.of(e.getKey(), schema, e.getValue().path("value")));
    }
    return out.stream();
  }

  @ParameterizedTest(name = "the spec example {0} is a valid {1}")
  @MethodSource("examples")
  void specExampleValidatesClean(String example, String schema, JsonNode value) {
    Expect.clean(VALIDATOR.validate(schema, value.toString()));
    Expect.clean(VALIDATOR.validate(schema, value));
  }

  @Test
  void theSpecHasSixExamplesAndEachFindsItsSchema() {
    assertEquals(6, examples().count());
  }

  @ParameterizedTest(name = "the test fixture of {0} is valid")
  @ValueSource(
      strings = {
        "Worker",
        "Actor",
        "HumanWorker",
        "AgentWorker",
        "JarvisEvent",
        "Policy",
        "Takeover",
        "Contribution",
        "LearningRecord",
        "MemoryProposal",
        "SkillProposal",
        "OutcomeReport"
      })
  void fixtureValidatesClean(String schema) {
    Expect.clean(VALIDATOR.validate(schema, Payloads.valid(schema).toString()));
  }
}
