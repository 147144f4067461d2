package dev.jarvis.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.model.PolicyDecision;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The answer mapping binds exactly what the wire mapping binds, to equal values, and refuses what
 * it refuses with the same message: its fast date path only ever answers where {@code java.time}
 * would have answered the same.
 */
class AnswerMappingTest {

  private static final ObjectMapper WIRE = JarvisJson.mapper();

  @ParameterizedTest
  @ValueSource(
      strings = {
        "2026-06-12T18:05:00Z",
        "2026-06-12T18:05:00.5Z",
        "2026-06-12T18:05:00.123456789Z",
        "2026-06-12T18:05:00.000Z",
        "2026-06-12T18:05:00+02:00",
        "2026-06-12T18:05:00.25-05:30",
        "2026-06-12T18:05:00-00:00",
        "2026-06-12T18:05:00+18:00",
        "2024-02-29T23:59:59Z",
        "0000-01-01T00:00:00Z",
        "9999-12-31T23:59:59.999999999Z",
        // Not the common shape, or not a value java.time holds: the module's own deserializer.
        "2026-06-12t18:05:00z",
        "2026-06-12T18:05Z",
        "2026-06-12T18:05:00",
        "2026-06-12T18:05:00.Z",
        "2026-06-12T18:05:00.1234567891Z",
        "2026-06-12T18:05:00+0200",
        "2026-06-12T18:05:00+02",
        "2026-06-12T18:05:00+19:00",
        "2026-06-12T18:05:00+02:60",
        "2026-06-12T18:05:60Z",
        "2026-06-12T24:00:00Z",
        "2026-02-30T18:05:00Z",
        "2025-02-29T18:05:00Z",
        "2026-13-12T18:05:00Z",
        "2026-06-12 18:05:00Z",
        "+2026-06-12T18:05:00Z",
        "2026-06-12T18:05:00ZZ",
        "２026-06-12T18:05:00Z",
        "1750000000",
        ""
      })
  void aTimestampBindsAsTheWireMappingBindsIt(String text) {
    assertSameOutcome(WIRE.getNodeFactory().textNode(text));
  }

  @ParameterizedTest
  @MethodSource("randomTimestamps")
  void randomTimestampsBindAsTheWireMappingBindsThem(String text) {
    OffsetDateTime fast = AnswerMapping.read(text);
    assertNotNull(fast, text + " has the common shape");
    assertEquals(OffsetDateTime.parse(text), fast, text);
    assertSameOutcome(WIRE.getNodeFactory().textNode(text));
  }

  static Stream<String> randomTimestamps() {
    Random random = new Random(25);
    DateTimeFormatter iso = DateTimeFormatter.ISO_OFFSET_DATE_TIME;
    return IntStream.range(0, 200)
        .mapToObj(
            i -> {
              OffsetDateTime t =
                  OffsetDateTime.of(
                      random.nextInt(10_000),
                      1 + random.nextInt(12),
                      1 + random.nextInt(28),
                      random.nextInt(24),
                      random.nextInt(60),
                      random.nextInt(60),
                      random.nextBoolean() ? 0 : random.nextInt(1_000_000_000),
                      java.time.ZoneOffset.ofTotalSeconds(
                          60 * (random.nextInt(2 * 18 * 60) - 18 * 60)));
              return iso.format(t);
            });
  }

  @Test
  void aTokenThatIsNotTextIsTheModulesToRead() {
    assertSameOutcome(WIRE.getNodeFactory().numberNode(1_750_000_000L));
    assertSameOutcome(WIRE.getNodeFactory().booleanNode(true));
  }

  @Test
  void textOfAnotherShapeIsNotReadByTheFastPath() {
    assertNull(AnswerMapping.read("2026-06-12t18:05:00z"));
    assertNull(AnswerMapping.read("2026-06-12T18:05:00+19:00"));
  }

  /** The same PolicyDecision with {@code created_at} set to {@code value}, bound both ways. */
  private static void assertSameOutcome(JsonNode value) {
    ObjectNode decision = decision();
    decision.set(PolicyDecision.JSON_PROPERTY_CREATED_AT, value);
    PolicyDecision wire;
    try {
      wire = WIRE.treeToValue(decision, PolicyDecision.class);
    } catch (JacksonException refused) {
      JacksonException same =
          assertThrows(
              JacksonException.class,
              () -> AnswerMapping.mapper().treeToValue(decision, PolicyDecision.class),
              value + " is refused by the wire mapping");
      assertEquals(refused.getOriginalMessage(), same.getOriginalMessage());
      return;
    }
    PolicyDecision answer;
    try {
      answer = AnswerMapping.mapper().treeToValue(decision, PolicyDecision.class);
    } catch (JacksonException e) {
      throw new AssertionError(value + " binds on the wire mapping: " + e.getOriginalMessage(), e);
    }
    assertEquals(wire, answer);
    // Equal instants are not enough: the offset read is kept, as the wire mapping keeps it.
    assertEquals(wire.getCreatedAt().getOffset(), answer.getCreatedAt().getOffset());
    assertEquals(wire.getCreatedAt().toLocalDateTime(), answer.getCreatedAt().toLocalDateTime());
  }

  private static ObjectNode decision() {
    try {
      return (ObjectNode)
          WIRE.readTree(
              """
              {"id": "pd-network-001", "work_session_id": "ws-protocol-001",
               "actor_id": "actor-agent-001", "policy_id": "policy-bounded-001",
               "requested_action": {"action": "fetch_external_source",
                 "target_ref": "source:external-reference", "scope_ref": "scope:source-collection"},
               "normalized_action_hash":
                 "sha256:2222222222222222222222222222222222222222222222222222222222222222",
               "risk_class": "medium", "result": "deny",
               "reason": "External source access requires HumanWorker review before continuation.",
               "request_id": "req-network-001", "created_at": "2026-06-12T18:05:00Z"}
              """);
    } catch (JacksonException e) {
      throw new AssertionError(e);
    }
  }
}
