package dev.jarvis.core.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.model.ProtocolErrorId;
import java.util.List;
import java.util.stream.Collectors;

/** Assertions on validation results, printing the whole result when they fail. */
final class Expect {

  private Expect() {}

  static final PayloadValidator VALIDATOR = PayloadValidator.forSpec();

  static void clean(List<ProtocolViolation> violations) {
    assertTrue(violations.isEmpty(), () -> "expected no violation, got\n" + show(violations));
  }

  /** Exactly one violation, with this id at this pointer. */
  static void only(List<ProtocolViolation> violations, String errorId, String pointer) {
    assertEquals(
        List.of(errorId + " " + pointer),
        violations.stream().map(v -> v.errorId().getValue() + " " + v.field()).toList(),
        () -> show(violations));
  }

  /** Among the violations, one with this id at this pointer. */
  static void includes(List<ProtocolViolation> violations, String errorId, String pointer) {
    assertTrue(
        violations.stream()
            .anyMatch(v -> v.errorId().getValue().equals(errorId) && v.field().equals(pointer)),
        () -> "expected " + errorId + " at " + pointer + ", got\n" + show(violations));
  }

  static String show(List<ProtocolViolation> violations) {
    return violations.stream()
        .map(v -> "  " + v.errorId().getValue() + " " + v.field() + " — " + v.reason())
        .collect(Collectors.joining("\n"));
  }

  static ProtocolErrorId id(String value) {
    return ProtocolErrorId.fromValue(value);
  }
}
