package dev.jarvis.core.validation;

import static dev.jarvis.core.validation.Expect.VALIDATOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.error.ProtocolViolation;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The spec's extension-namespace pattern ends in a repeated group, on which java.util.regex
 * recurses once per segment: an {@code extensions} key of a few thousand segments threw {@link
 * StackOverflowError} out of the validator. Found by the header parser's long fuzz run.
 */
class LongNamesTest {

  @ParameterizedTest(name = "an extension key of {0} segments is judged, never a stack overflow")
  @ValueSource(ints = {10, 3_000, 15_000})
  void anExtensionKeyOfThousandsOfSegmentsIsJudgedNeverAStackOverflow(int segments) {
    String key = "td.".repeat(segments) + "td";
    ObjectNode worker = Payloads.valid("Worker");
    ((ObjectNode) worker.get("extensions")).put(key, 1);

    List<ProtocolViolation> result = VALIDATOR.validate("Worker", worker.toString());

    assertEquals(result, VALIDATOR.validate("Worker", worker));
    if (segments < 1_000) {
      Expect.clean(result);
    } else {
      // Too long for the pattern engine to judge: refused as not matching, at the key.
      assertFalse(result.isEmpty());
      assertEquals("/extensions/" + key, result.get(0).field());
      assertEquals("invalid_extension_namespace", result.get(0).errorId().getValue());
    }
  }
}
