package dev.jarvis.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.model.MemoryProposal;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.Review;
import dev.jarvis.model.WorkSession;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validation;
import jakarta.validation.ValidatorFactory;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class WireRefusalTest {

  private static final ObjectMapper MAPPER = JarvisJson.mapper();

  private static ObjectNode example(String name) {
    return (ObjectNode)
        SpecExamples.spec().path("components").path("examples").path(name).path("value").deepCopy();
  }

  /**
   * What binding itself refuses. A {@code protocol_version} other than the {@code const} binds (it
   * is a {@code String} in every record, docs/generation.md): the validator refuses it, and
   * JsonSchemaRulesTest checks that.
   */
  static Stream<Arguments> bindingRefusals() {
    return Stream.of(
        Arguments.of(
            "unknown field",
            WorkSession.class,
            edit("WorkSessionCreateExample", n -> n.put("database_primary_key", "42")),
            "database_primary_key"),
        Arguments.of(
            "unknown enum value",
            PolicyDecision.class,
            edit("PolicyDecisionDeniedExample", n -> n.put("result", "maybe")),
            "result"),
        Arguments.of(
            "string where a number travels",
            WorkSession.class,
            edit("WorkSessionCreateExample", n -> n.put("revision", "1")),
            "revision"),
        Arguments.of(
            "fraction where an integer travels",
            WorkSession.class,
            edit("WorkSessionCreateExample", n -> n.put("revision", 1.5)),
            "revision"),
        Arguments.of(
            "unknown field in a nested record",
            Review.class,
            edit(
                "ReviewApproveRequestExample",
                n -> ((ObjectNode) n.path("approval_scope")).put("unbounded_approval", true)),
            "unbounded_approval"));
  }

  private static String edit(String example, Consumer<ObjectNode> change) {
    ObjectNode node = example(example);
    change.accept(node);
    return node.toString();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("bindingRefusals")
  void bindingRefusesOffSpecJsonNamingTheField(
      String why, Class<?> type, String json, String field) {
    JacksonException e = assertThrows(JacksonException.class, () -> MAPPER.readValue(json, type));
    assertTrue(
        e.getMessage().contains(field),
        () -> why + ": message does not name " + field + ": " + e.getMessage());
  }

  @Test
  void duplicateKeyIsRefusedNamingTheKey() {
    String json =
        example("WorkSessionCreateExample").toString().replaceFirst("\\{", "{\"objective\":\"a\",");
    JacksonException e =
        assertThrows(JacksonException.class, () -> MAPPER.readValue(json, WorkSession.class));
    assertTrue(e.getMessage().contains("objective"), e.getMessage());
  }

  @Test
  void duplicateKeyIsRefusedInATreeToo() {
    JacksonException e =
        assertThrows(JacksonException.class, () -> MAPPER.readTree("{\"a\":1,\"a\":2}"));
    assertTrue(e.getMessage().contains("'a'"), e.getMessage());
  }

  @Test
  void trailingContentAfterTheDocumentIsRefused() {
    String json = example("WorkSessionCreateExample").toString() + " {}";
    assertThrows(JacksonException.class, () -> MAPPER.readValue(json, WorkSession.class));
  }

  static Stream<Arguments> idViolations() {
    return Stream.of(
        Arguments.of("pattern", "-starts-with-dash"),
        Arguments.of("pattern", "has space"),
        Arguments.of("pattern", "id\n"),
        Arguments.of("length", "a".repeat(161)),
        Arguments.of("length", ""));
  }

  @ParameterizedTest(name = "JarvisId breaking its {0}: \"{1}\"")
  @MethodSource("idViolations")
  void jarvisIdBreakingItsPatternOrLengthFailsValidationOnThatField(String rule, String id)
      throws Exception {
    WorkSession session =
        MAPPER.readValue(
            edit("WorkSessionCreateExample", n -> n.put("policy_id", id)), WorkSession.class);
    try (ValidatorFactory factory = Validation.buildDefaultValidatorFactory()) {
      Set<ConstraintViolation<WorkSession>> violations = factory.getValidator().validate(session);
      Set<String> paths =
          violations.stream().map(v -> v.getPropertyPath().toString()).collect(Collectors.toSet());
      assertEquals(Set.of("policyId"), paths, rule);
    }
  }

  @Test
  void absentOptionalFieldsStayAbsentOnWrite() throws Exception {
    MemoryProposal proposal = new MemoryProposal().id("mp-1").reviewRequired(true);
    JsonNode written = MAPPER.readTree(MAPPER.writeValueAsString(proposal));
    assertEquals(Set.of("id", "review_required"), fieldNames(written));
  }

  @Test
  void portableValueKeepsJsonNullAndStructureAsATree() throws Exception {
    MemoryProposal proposal =
        new MemoryProposal().content(MAPPER.readTree("{\"k\":[1,null,{\"x\":true}]}"));
    String written = MAPPER.writeValueAsString(proposal);
    assertEquals("{\"content\":{\"k\":[1,null,{\"x\":true}]}}", written);
    MemoryProposal nullContent = MAPPER.readValue("{\"content\":null}", MemoryProposal.class);
    assertTrue(nullContent.getContent().isNull(), "JSON null content is a null node, not absent");
  }

  @Test
  void timestampsAreWrittenAsRfc3339TextWithSecondsAndTheirOffset() throws Exception {
    WorkSession session =
        new WorkSession()
            .createdAt(OffsetDateTime.of(2026, 6, 12, 18, 0, 0, 0, ZoneOffset.ofHours(2)));
    assertEquals(
        "{\"created_at\":\"2026-06-12T18:00:00+02:00\"}", MAPPER.writeValueAsString(session));
    WorkSession read =
        MAPPER.readValue("{\"created_at\":\"2026-06-12T18:00:00+02:00\"}", WorkSession.class);
    assertEquals(ZoneOffset.ofHours(2), read.getCreatedAt().getOffset());
  }

  private static Set<String> fieldNames(JsonNode node) {
    return node.properties().stream().map(e -> e.getKey()).collect(Collectors.toSet());
  }
}
