package dev.jarvis.core.validation;

import static dev.jarvis.core.validation.Expect.VALIDATOR;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jarvis.core.error.ProtocolViolation;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Raw input that is not a readable JSON document comes back as a violation, never an exception. */
class RawPayloadTest {

  private static final String VALID = Payloads.valid("PolicyDecision").toString();

  static Stream<Arguments> unreadable() {
    return Stream.of(
        Arguments.of("truncated JSON", VALID.substring(0, VALID.length() / 2), null),
        Arguments.of("a bare word", "policy", ""),
        Arguments.of("an empty payload", "", ""),
        Arguments.of("only whitespace", " \n ", ""),
        Arguments.of("a duplicate key", "{\"id\": \"pd-1\", \"id\": \"pd-2\"}", "/id"),
        Arguments.of(
            "a duplicate key in a nested object",
            VALID.replace("\"action\":", "\"action\":\"x\",\"action\":"),
            "/requested_action/action"),
        Arguments.of("trailing garbage", VALID + " x", ""),
        Arguments.of("a second document", VALID + " {}", ""),
        Arguments.of("a stray closing bracket", VALID + "]", ""),
        Arguments.of("a comment", "/* hi */ " + VALID, ""),
        Arguments.of("single quotes", VALID.replace('"', '\''), ""));
  }

  @ParameterizedTest(name = "{0} is one unknown_state violation, not an exception")
  @MethodSource("unreadable")
  void unreadableTextIsOneViolation(String what, String json, String pointer) {
    for (List<ProtocolViolation> result :
        List.of(
            VALIDATOR.validate("PolicyDecision", json),
            VALIDATOR.validate("PolicyDecision", json.getBytes(StandardCharsets.UTF_8)))) {
      assertEquals(1, result.size(), () -> Expect.show(result));
      ProtocolViolation v = result.get(0);
      assertEquals("unknown_state", v.errorId().getValue());
      assertEquals("policy_decision", v.objectType());
      if (pointer != null) {
        assertEquals(pointer, v.field());
      }
    }
  }

  @Test
  void invalidUtf8IsOneViolation() {
    byte[] bytes = VALID.replace("deny", "d\u00e9ny").getBytes(StandardCharsets.ISO_8859_1);
    List<ProtocolViolation> result = VALIDATOR.validate("PolicyDecision", bytes);
    assertEquals(1, result.size(), () -> Expect.show(result));
    assertEquals("unknown_state", result.get(0).errorId().getValue());
  }

  @Test
  void theReasonDoesNotEchoTheUnreadableText() {
    List<ProtocolViolation> result =
        VALIDATOR.validate("PolicyDecision", "{\"reason\": s3cr3t-value}");
    assertEquals(1, result.size());
    assertEquals(false, result.get(0).reason().contains("s3cr3t"), result.get(0).reason());
  }

  static Stream<Arguments> notAnObject() {
    return Stream.of(
        Arguments.of("an array", "[]"),
        Arguments.of("null", "null"),
        Arguments.of("a number", "42"),
        Arguments.of("a string", "\"pd-1\""));
  }

  @ParameterizedTest(name = "{0} instead of an object is one unknown_state at the root")
  @MethodSource("notAnObject")
  void wellFormedButNotAnObject(String what, String json) {
    Expect.only(VALIDATOR.validate("PolicyDecision", json), "unknown_state", "");
  }

  @Test
  void bytesTextAndTreeGiveTheSameAnswer() {
    String json =
        Payloads.edited("PolicyDecision", n -> n.put("created_at", "2026-02-30T00:00:00Z"));
    List<ProtocolViolation> fromText = VALIDATOR.validate("PolicyDecision", json);
    assertEquals(
        fromText, VALIDATOR.validate("PolicyDecision", json.getBytes(StandardCharsets.UTF_8)));
    assertEquals(
        fromText,
        VALIDATOR.validate(
            "PolicyDecision",
            Payloads.valid("PolicyDecision").put("created_at", "2026-02-30T00:00:00Z")));
  }

  @Test
  void threeIndependentProblemsAreThreeViolationsInPointerOrder() {
    String json =
        Payloads.edited(
            "PolicyDecision",
            n ->
                n.put("created_at", "2026-02-30T18:05:00Z") // not a date
                    .put("credential", "hunter2") // host-private field
                    .remove("request_id")); // a deny without its Request
    List<String> got =
        VALIDATOR.validate("PolicyDecision", json).stream()
            .map(v -> v.errorId().getValue() + " " + v.field())
            .toList();
    assertEquals(
        List.of(
            "unknown_state /created_at",
            "forbidden_host_private_field /credential",
            "request_unresolved /request_id"),
        got);
  }
}
