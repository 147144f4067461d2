package dev.jarvis.core.validation;

import static dev.jarvis.core.validation.Expect.VALIDATOR;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.function.Consumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A table of payload edits, each refused with its error id at its pointer or accepted. Subclasses
 * provide {@code static Stream<Arguments> refused()} and {@code accepted()}.
 */
abstract class PayloadRuleTable {

  static Arguments refused(
      String what, String schema, Consumer<ObjectNode> edit, String errorId, String pointer) {
    return Arguments.of(what, schema, edit, errorId, pointer);
  }

  static Arguments accepted(String what, String schema, Consumer<ObjectNode> edit) {
    return Arguments.of(what, schema, edit);
  }

  @ParameterizedTest(name = "{1} with {0} is refused as {3} at {4}")
  @MethodSource("refused")
  void refusedWithErrorIdAtPointer(
      String what, String schema, Consumer<ObjectNode> edit, String errorId, String pointer) {
    Expect.only(VALIDATOR.validate(schema, Payloads.edited(schema, edit)), errorId, pointer);
  }

  @ParameterizedTest(name = "{1} with {0} is accepted")
  @MethodSource("accepted")
  void acceptedAsValid(String what, String schema, Consumer<ObjectNode> edit) {
    Expect.clean(VALIDATOR.validate(schema, Payloads.edited(schema, edit)));
  }
}
