package dev.jarvis.core.validation;

import static dev.jarvis.core.validation.Expect.VALIDATOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.FuzzJson;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.canonical.CanonicalizationException;
import dev.jarvis.core.canonical.JcsCanonicalizer;
import dev.jarvis.core.error.ProtocolViolation;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Text that canonical JSON cannot carry (a lone UTF-16 surrogate, a number beyond the double range)
 * is refused by the validator as the canonicalizer refuses it: one {@code unknown_state} at the
 * offending value, before anything could try to hash it. Fuzzing found such text in an event's
 * {@code type} and a decision's {@code normalized_action_hash} answered with a 500.
 */
class UncarriedTextTest {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  static Stream<Arguments> uncarried() {
    return Stream.of(
        Arguments.of("a lone high surrogate", "JarvisEvent", "/type", NODES.textNode("\ud800")),
        Arguments.of("a lone low surrogate", "JarvisEvent", "/type", NODES.textNode("a\udc00b")),
        Arguments.of(
            "a lone surrogate",
            "PolicyDecision",
            "/normalized_action_hash",
            NODES.textNode("sha256:\udbff")),
        Arguments.of(
            "a lone surrogate",
            "Contribution",
            "/contributor_refs/0/worker_id",
            NODES.textNode("worker-\udfff")),
        Arguments.of(
            "a number beyond the double range",
            "JarvisEvent",
            "/sequence",
            NODES.numberNode(new BigDecimal("1e400"))));
  }

  @ParameterizedTest(
      name = "{0} in a {1} at {2} is one unknown_state there, from bytes, text and tree")
  @MethodSource("uncarried")
  void textCanonicalJsonCannotCarryIsRefusedAsTheCanonicalizerRefusesIt(
      String what, String schema, String field, JsonNode value) throws Exception {
    ObjectNode payload = Payloads.valid(schema);
    JsonPointer at = JsonPointer.compile(field);
    ((ObjectNode) payload.at(at.head())).set(at.last().getMatchingProperty(), value);
    byte[] bytes = FuzzJson.escapedText(payload); // a lone surrogate travels as an escape
    JsonNode tree = JarvisJson.mapper().readTree(bytes); // which Jackson lets through
    CanonicalizationException hashing =
        assertThrows(CanonicalizationException.class, () -> JcsCanonicalizer.canonicalize(tree));
    ProtocolViolation expected = hashing.toViolation(objectType(schema));

    for (List<ProtocolViolation> result :
        List.of(
            VALIDATOR.validate(schema, bytes),
            VALIDATOR.validate(schema, new String(bytes, StandardCharsets.US_ASCII)),
            VALIDATOR.validate(schema, tree))) {
      assertEquals(List.of(expected), result);
      assertEquals(field, result.get(0).field());
      assertEquals("unknown_state", result.get(0).errorId().getValue());
      assertFalse(result.get(0).reason().contains("sha256:"), "never echoes the text");
    }
  }

  /**
   * Jackson refuses an escaped lone surrogate in a name before it is whole: the object is named.
   */
  @Test
  void anEscapedLoneSurrogateInAMemberNameIsRefusedAtItsObject() {
    String json =
        Payloads.valid("Worker")
            .toString()
            .replace("\"acme.review-hint\"", "\"acme.x\\ud800\":1,\"acme.review-hint\"");
    Expect.only(VALIDATOR.validate("Worker", json), "unknown_state", "/extensions");
  }

  /** In a tree (or a Java string) the name is whole, so the member itself is named. */
  @Test
  void aLoneSurrogateInAMemberNameOfATreeIsRefusedAtThatMember() {
    ObjectNode worker = Payloads.valid("Worker");
    ((ObjectNode) worker.get("extensions")).put("acme.x\ud800", 1);
    Expect.only(VALIDATOR.validate("Worker", worker), "unknown_state", "/extensions/acme.x\ud800");
  }

  private static String objectType(String schema) {
    return schema.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(java.util.Locale.ROOT);
  }
}
