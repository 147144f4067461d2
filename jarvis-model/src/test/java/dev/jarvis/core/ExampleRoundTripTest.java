package dev.jarvis.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import jakarta.validation.ValidatorFactory;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ExampleRoundTripTest {

  private static final ObjectMapper MAPPER = JarvisJson.mapper();
  private static ValidatorFactory validatorFactory;
  private static Validator validator;

  @BeforeAll
  static void startValidator() {
    validatorFactory = Validation.buildDefaultValidatorFactory();
    validator = validatorFactory.getValidator();
  }

  @AfterAll
  static void closeValidator() {
    validatorFactory.close();
  }

  static Stream<Arguments> examples() {
    return SpecExamples.all();
  }

  @Test
  void specHasExamplesForEveryKindItShows() {
    assertEquals(6, examples().count(), "components.examples in the v0.1 spec");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("examples")
  void exampleBindsValidatesAndReserializesToTheSameTree(
      String name, Class<?> modelClass, JsonNode example) throws Exception {
    String wire = MAPPER.writeValueAsString(example);

    Object record = MAPPER.readValue(wire, modelClass);

    Set<ConstraintViolation<Object>> violations = validator.validate(record);
    assertTrue(violations.isEmpty(), () -> name + " violates " + violations);
    assertEquals(example, MAPPER.readTree(MAPPER.writeValueAsString(record)), name);
  }
}
