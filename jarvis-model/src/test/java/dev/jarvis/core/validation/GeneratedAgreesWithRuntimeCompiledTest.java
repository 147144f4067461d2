package dev.jarvis.core.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jarvis.core.Fuzz;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.SpecOperationTable;
import dev.jarvis.core.error.ProtocolViolation;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The shipped validator, whose checks the build generated from the spec, answers as the same spec
 * compiled at run time ({@link PayloadValidator#forSpec(com.fasterxml.jackson.databind.JsonNode)},
 * the reference it is held to): the same violations (error_id, pointer, order, reason and
 * remediation) over the validation corpus, every fixture and payloads mutated at random, from text,
 * bytes and trees.
 */
@DisplayName("Build-time checks agree with the run-time compiled spec")
class GeneratedAgreesWithRuntimeCompiledTest {

  private static final PayloadValidator GENERATED = PayloadValidator.forSpec();
  private static final PayloadValidator RUNTIME = PayloadValidator.forSpec(JarvisSpec.tree());

  static Stream<CompiledAgreesWithInterpretiveTest.Case> corpus()
      throws ReflectiveOperationException {
    return CompiledAgreesWithInterpretiveTest.corpus();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpus")
  void everyCorpusPayloadGetsTheSameViolations(CompiledAgreesWithInterpretiveTest.Case c) {
    assertSameVerdict(c.schema(), c.json());
  }

  @Test
  @DisplayName("a payload mutated at random gets the same violations from both")
  void aMutatedPayloadGetsTheSameViolationsFromBoth(TestInfo test) {
    Fuzz.forAll(
        test,
        3000,
        CompiledAgreesWithInterpretiveTest::mutated,
        c -> assertSameVerdict(c.schema(), c.json()));
  }

  @Test
  void bothKnowTheSameSchemasAndRequestBodies() {
    assertEquals(RUNTIME.schemaNames(), GENERATED.schemaNames());
    for (SpecOperationTable.Operation op : SpecOperationTable.operations()) {
      assertEquals(
          bodyOf(RUNTIME, op.operationId()), bodyOf(GENERATED, op.operationId()), op.operationId());
    }
  }

  /** The operation's body schema, or why it has none. */
  private static String bodyOf(PayloadValidator validator, String operationId) {
    try {
      return validator.requestBodySchema(operationId);
    } catch (IllegalArgumentException none) {
      return none.getMessage();
    }
  }

  private static void assertSameVerdict(String schema, String json) {
    List<ProtocolViolation> runtime = RUNTIME.validate(schema, json);
    assertEquals(runtime, GENERATED.validate(schema, json), json);
    assertEquals(
        runtime,
        GENERATED.validate(schema, json.getBytes(java.nio.charset.StandardCharsets.UTF_8)),
        json);
  }
}
