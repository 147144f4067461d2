package dev.jarvis.core.error;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.model.ProtocolErrorId;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A remediation is true where it is raised: the catch-all {@code unknown_state}, when it reports a
 * broken schema rule or an unreadable body, names the field and the rule and does not send the user
 * to check ids; HostAuth failures speak of the credential.
 */
class RemediationTextTest {

  private static final PayloadValidator VALIDATOR = PayloadValidator.forSpec();

  private static ObjectNode session() {
    ProtocolRecords records =
        new ProtocolRecords(
            Clock.fixed(Instant.parse("2026-06-12T18:00:00Z"), ZoneOffset.UTC),
            () -> "1",
            "actor-human-1");
    return JarvisJson.mapper()
        .valueToTree(
            records.workSession(
                "Check the protocol behaviour of a Jarvis host.",
                "worker-human-1",
                "worker-agent-1",
                "policy-bounded-001"));
  }

  static Stream<Arguments> schemaBreaches() {
    return Stream.of(
        Arguments.of(
            "a missing required field",
            (Consumer<ObjectNode>) s -> s.remove("event_log_ref"),
            "/event_log_ref",
            "required",
            "Add the required field 'event_log_ref'"),
        Arguments.of(
            "an unknown field",
            (Consumer<ObjectNode>) s -> s.put("colour", "blue"),
            "/colour",
            "additionalProperties",
            "Remove 'colour'"),
        Arguments.of(
            "a value outside its enum",
            (Consumer<ObjectNode>) s -> s.put("status", "sleeping"),
            "/status",
            "enum",
            "one of the values"),
        Arguments.of(
            "a value of the wrong type",
            (Consumer<ObjectNode>) s -> s.put("objective", 7),
            "/objective",
            "type",
            "a value of the type"));
  }

  @ParameterizedTest(name = "{0} names the field and the rule")
  @MethodSource("schemaBreaches")
  void aSchemaBreachReportedAsUnknownStateNamesTheFieldAndTheRule(
      String what, Consumer<ObjectNode> breach, String field, String rule, String remedy) {
    ObjectNode session = session();
    breach.accept(session);

    List<ProtocolViolation> violations = VALIDATOR.validate("WorkSession", session);

    assertEquals(1, violations.size(), violations::toString);
    ProtocolViolation v = violations.get(0);
    assertEquals(ProtocolErrorId.UNKNOWN_STATE, v.errorId());
    assertEquals(field, v.field());
    assertTrue(v.reason().contains("rule: " + rule), v.reason());
    assertTrue(v.remediation().contains(remedy), v.remediation());
    assertFalse(v.remediation().contains("ids"), v.remediation());
  }

  @Test
  void anUnreadableBodyIsNotSentToCheckIds() {
    ProtocolViolation v = VALIDATOR.validate("WorkSession", "{\"id\": ").get(0);

    assertEquals(ProtocolErrorId.UNKNOWN_STATE, v.errorId());
    assertTrue(v.remediation().contains("JSON object"), v.remediation());
  }

  @Test
  void aHostAuthFailureSpeaksOfTheCredentialNotTheActorsAuthority() {
    ProtocolViolation v = ProtocolViolation.hostAuth("HostAuth failed: no Authorization header.");

    assertEquals(ProtocolErrorId.UNAUTHORIZED_ACTOR, v.errorId());
    assertEquals("Authorization", v.field());
    assertTrue(v.remediation().contains("Authorization"), v.remediation());
    assertFalse(v.remediation().contains("Act as an Actor"), v.remediation());
  }
}
