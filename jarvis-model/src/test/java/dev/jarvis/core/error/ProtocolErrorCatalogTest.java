package dev.jarvis.core.error;

import static dev.jarvis.core.OperationClass.EXPORT_READ;
import static dev.jarvis.core.OperationClass.NON_WORKSESSION_MUTATION;
import static dev.jarvis.core.OperationClass.WORKSESSION_GENESIS_MUTATION;
import static dev.jarvis.core.OperationClass.WORKSESSION_SCOPED_MUTATION;
import static dev.jarvis.core.OperationClass.WORKSESSION_SCOPED_READ;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.OperationClass;
import dev.jarvis.core.SpecOperationTable;
import dev.jarvis.core.SpecOperationTable.Operation;
import dev.jarvis.model.ProtocolErrorId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

class ProtocolErrorCatalogTest {

  /** Words a catalogue text must not contain: it never asks for, names or echoes secrets. */
  private static final Pattern SECRET_WORDS =
      Pattern.compile(
          "(?i)password|secret|credential|token|api[ _-]?key|private[ _-]?key|cookie|oauth");

  /** A sentence end followed by more text: two sentences. */
  private static final Pattern INNER_SENTENCE_END = Pattern.compile("[.!?]\\s");

  private static final Set<OperationClass> READS = EnumSet.of(WORKSESSION_SCOPED_READ, EXPORT_READ);

  @ParameterizedTest(name = "{0} has a non-blank reason, remediation and operation classes")
  @EnumSource(ProtocolErrorId.class)
  void everyErrorIdHasACompleteEntry(ProtocolErrorId id) {
    ProtocolErrorCatalog.Entry entry = ProtocolErrorCatalog.entry(id);
    assertEquals(id, entry.errorId());
    assertFalse(ProtocolErrorCatalog.defaultReason(id).isBlank());
    assertFalse(ProtocolErrorCatalog.remediation(id).isBlank());
    assertFalse(ProtocolErrorCatalog.operationClasses(id).isEmpty());
  }

  @ParameterizedTest(name = "{0}: each text is one sentence and mentions no secret")
  @EnumSource(ProtocolErrorId.class)
  void textsAreSingleSentencesWithoutSecrets(ProtocolErrorId id) {
    for (String text :
        List.of(ProtocolErrorCatalog.defaultReason(id), ProtocolErrorCatalog.remediation(id))) {
      assertTrue(text.endsWith("."), text);
      assertTrue(Character.isUpperCase(text.charAt(0)), text);
      assertFalse(INNER_SENTENCE_END.matcher(text).find(), "more than one sentence: " + text);
      assertFalse(SECRET_WORDS.matcher(text).find(), "mentions a secret: " + text);
    }
  }

  @Test
  void catalogueIdsAreExactlyTheSpecsProtocolErrorIdEnum() {
    Set<String> spec = new HashSet<>();
    JarvisSpec.tree()
        .path("components")
        .path("schemas")
        .path("ProtocolErrorId")
        .path("enum")
        .forEach(v -> spec.add(v.asText()));
    Set<String> catalogue =
        ProtocolErrorCatalog.entries().stream()
            .map(e -> e.errorId().getValue())
            .collect(Collectors.toSet());
    assertEquals(61, spec.size());
    assertEquals(spec, catalogue);
  }

  @Test
  void entriesComeInTheSpecsEnumOrder() {
    assertEquals(
        Arrays.asList(ProtocolErrorId.values()),
        ProtocolErrorCatalog.entries().stream().map(ProtocolErrorCatalog.Entry::errorId).toList());
  }

  @Test
  void operationClassesCannotBeChangedByTheCaller() {
    Set<OperationClass> classes =
        ProtocolErrorCatalog.operationClasses(ProtocolErrorId.MISSING_ACTOR);
    assertThrows(UnsupportedOperationException.class, () -> classes.remove(EXPORT_READ));
    Set<ProtocolErrorId> ids = ProtocolErrorCatalog.raisableBy(EXPORT_READ);
    assertThrows(UnsupportedOperationException.class, () -> ids.add(ProtocolErrorId.MISSING_ACTOR));
  }

  static Stream<Arguments> spotChecks() {
    Set<OperationClass> all = EnumSet.allOf(OperationClass.class);
    Set<OperationClass> mutations =
        EnumSet.of(
            NON_WORKSESSION_MUTATION, WORKSESSION_GENESIS_MUTATION, WORKSESSION_SCOPED_MUTATION);
    Set<OperationClass> cursor =
        EnumSet.of(WORKSESSION_GENESIS_MUTATION, WORKSESSION_SCOPED_MUTATION);
    return Stream.of(
        Arguments.of(ProtocolErrorId.MISSING_IDEMPOTENCY_KEY, mutations),
        Arguments.of(ProtocolErrorId.MISSING_REQUEST_TIMESTAMP, mutations),
        Arguments.of(ProtocolErrorId.STALE_REQUEST_TIMESTAMP, mutations),
        Arguments.of(ProtocolErrorId.DUPLICATE_IDEMPOTENCY_KEY_MISMATCH, mutations),
        Arguments.of(ProtocolErrorId.MISSING_EXPECTED_WORK_SESSION_REVISION, cursor),
        Arguments.of(ProtocolErrorId.MISSING_PREVIOUS_EVENT_HASH, cursor),
        Arguments.of(ProtocolErrorId.STALE_WORK_SESSION_REVISION, cursor),
        Arguments.of(ProtocolErrorId.INVALID_EXPORT_STATE, EnumSet.of(EXPORT_READ)),
        Arguments.of(ProtocolErrorId.INVALID_EXPORT, EnumSet.of(EXPORT_READ)),
        Arguments.of(ProtocolErrorId.UNSUPPORTED_CAPABILITY, all),
        Arguments.of(ProtocolErrorId.MISSING_PROTOCOL_VERSION, all),
        Arguments.of(ProtocolErrorId.MISSING_ACTOR, all),
        Arguments.of(ProtocolErrorId.UNAUTHORIZED_ACTOR, all),
        Arguments.of(
            ProtocolErrorId.OUTCOME_REPORT_WITHOUT_LEARNING_RECORD,
            EnumSet.of(NON_WORKSESSION_MUTATION)));
  }

  @ParameterizedTest(name = "{0} is raised by exactly {1}")
  @MethodSource("spotChecks")
  void aUserCanRelyOnWhichOperationClassesRaiseAnId(
      ProtocolErrorId id, Set<OperationClass> expected) {
    assertEquals(expected, ProtocolErrorCatalog.operationClasses(id));
  }

  @ParameterizedTest(name = "a {0} never raises a mutation-header error")
  @EnumSource(
      value = OperationClass.class,
      names = {"WORKSESSION_SCOPED_READ", "EXPORT_READ"})
  void readsNeverRaiseMutationHeaderErrors(OperationClass read) {
    Set<ProtocolErrorId> mutationHeaderErrors =
        EnumSet.of(
            ProtocolErrorId.MISSING_IDEMPOTENCY_KEY,
            ProtocolErrorId.DUPLICATE_IDEMPOTENCY_KEY_MISMATCH,
            ProtocolErrorId.MISSING_REQUEST_TIMESTAMP,
            ProtocolErrorId.STALE_REQUEST_TIMESTAMP,
            ProtocolErrorId.MISSING_EXPECTED_WORK_SESSION_REVISION,
            ProtocolErrorId.STALE_WORK_SESSION_REVISION,
            ProtocolErrorId.MISSING_PREVIOUS_EVENT_HASH);
    Set<ProtocolErrorId> raised = EnumSet.copyOf(ProtocolErrorCatalog.raisableBy(read));
    raised.retainAll(mutationHeaderErrors);
    assertEquals(Set.of(), raised);
  }

  @Test
  void raisableByIsTheInverseOfOperationClasses() {
    for (OperationClass c : OperationClass.values()) {
      for (ProtocolErrorId id : ProtocolErrorId.values()) {
        assertEquals(
            ProtocolErrorCatalog.operationClasses(id).contains(c),
            ProtocolErrorCatalog.raisableBy(c).contains(id),
            id + " / " + c);
      }
    }
  }

  // --- What the spec ties to operations, the catalogue must cover. ---

  /** The error ids a header parameter's refusal can carry. */
  private static final Map<String, List<ProtocolErrorId>> HEADER_ERRORS =
      Map.of(
          "Jarvis-Protocol-Version",
          List.of(
              ProtocolErrorId.MISSING_PROTOCOL_VERSION,
              ProtocolErrorId.UNSUPPORTED_PROTOCOL_VERSION),
          "Jarvis-Actor-Id",
          List.of(ProtocolErrorId.MISSING_ACTOR, ProtocolErrorId.UNAUTHORIZED_ACTOR),
          "Jarvis-Idempotency-Key",
          List.of(
              ProtocolErrorId.MISSING_IDEMPOTENCY_KEY,
              ProtocolErrorId.DUPLICATE_IDEMPOTENCY_KEY_MISMATCH),
          "Jarvis-Request-Timestamp",
          List.of(
              ProtocolErrorId.MISSING_REQUEST_TIMESTAMP, ProtocolErrorId.STALE_REQUEST_TIMESTAMP),
          "Jarvis-Expected-WorkSession-Revision",
          List.of(
              ProtocolErrorId.MISSING_EXPECTED_WORK_SESSION_REVISION,
              ProtocolErrorId.STALE_WORK_SESSION_REVISION),
          "Jarvis-Previous-Event-Hash",
          List.of(
              ProtocolErrorId.MISSING_PREVIOUS_EVENT_HASH,
              ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH),
          "Jarvis-Required-Capabilities",
          List.of(ProtocolErrorId.UNSUPPORTED_CAPABILITY),
          "Jarvis-Extensions",
          List.of(
              ProtocolErrorId.INVALID_EXTENSION_NAMESPACE,
              ProtocolErrorId.EXTENSION_CORE_FIELD_OVERRIDE));

  @Test
  void everyHeaderErrorIsRaisedByEveryOperationClassThatTakesTheHeader() {
    List<String> gaps = new ArrayList<>();
    for (Operation op : SpecOperationTable.operations()) {
      List<String> headers = new ArrayList<>(op.requiredHeaders());
      headers.addAll(op.optionalHeaders());
      for (String header : headers) {
        for (ProtocolErrorId id : HEADER_ERRORS.get(header)) {
          requireRaisedBy(id, op, "takes " + header, gaps);
        }
      }
    }
    assertEquals(List.of(), gaps);
  }

  @ParameterizedTest(name = "{0} is raised only by operation classes that require its header")
  @EnumSource(
      value = ProtocolErrorId.class,
      names = {
        "MISSING_IDEMPOTENCY_KEY",
        "MISSING_REQUEST_TIMESTAMP",
        "STALE_REQUEST_TIMESTAMP",
        "MISSING_EXPECTED_WORK_SESSION_REVISION",
        "MISSING_PREVIOUS_EVENT_HASH",
        "MISSING_PROTOCOL_VERSION"
      })
  void headerAbsenceErrorsBelongToTheClassesThatRequireTheHeader(ProtocolErrorId id) {
    String header =
        HEADER_ERRORS.entrySet().stream()
            .filter(e -> e.getValue().contains(id))
            .map(Map.Entry::getKey)
            .findFirst()
            .orElseThrow();
    Set<OperationClass> requiring = EnumSet.noneOf(OperationClass.class);
    for (Operation op : SpecOperationTable.operations()) {
      if (op.requiredHeaders().contains(header)) {
        requiring.add(op.operationClass());
      }
    }
    assertEquals(requiring, ProtocolErrorCatalog.operationClasses(id));
  }

  @Test
  void idMatchRejectionsAreRaisedByTheOperationsThatDeclareThem() {
    for (String extension :
        List.of("x-jarvis-path-body-id-match", "x-jarvis-actor-body-id-match")) {
      Set<OperationClass> declaring = EnumSet.noneOf(OperationClass.class);
      ProtocolErrorId id = null;
      for (Operation op : SpecOperationTable.operations()) {
        JsonNode match = op.node().path(extension);
        if (!match.isMissingNode()) {
          id = ProtocolErrorId.fromValue(match.path("rejection_id").asText());
          declaring.add(op.operationClass());
        }
      }
      assertEquals(declaring, ProtocolErrorCatalog.operationClasses(id), extension);
    }
  }

  @Test
  void schemaRejectionsAreRaisedByEveryOperationThatCarriesTheSchema() {
    List<String> gaps = new ArrayList<>();
    JsonNode schemas = SpecOperationTable.spec().path("components").path("schemas");
    for (Operation op : SpecOperationTable.operations()) {
      for (String schema : op.schemas()) {
        JsonNode node = schemas.path(schema);
        for (ProtocolErrorId id : rejectionIdsIn(node)) {
          requireRaisedBy(id, op, "carries " + schema, gaps);
        }
        if (node.has("x-jarvis-forbidden-fields") || schema.equals("PortableValue")) {
          requireRaisedBy(
              ProtocolErrorId.FORBIDDEN_HOST_PRIVATE_FIELD, op, "carries " + schema, gaps);
        }
        if (schema.equals("NamespacedExtensions")) {
          requireRaisedBy(ProtocolErrorId.INVALID_EXTENSION_NAMESPACE, op, "extensions", gaps);
          requireRaisedBy(ProtocolErrorId.EXTENSION_CORE_FIELD_OVERRIDE, op, "extensions", gaps);
        }
      }
    }
    assertEquals(List.of(), gaps);
  }

  @Test
  void theGenesisStateIsEnforcedByTheGenesisClass() {
    for (Operation op : SpecOperationTable.operations()) {
      if (op.node().has("x-jarvis-genesis-state")) {
        assertEquals(WORKSESSION_GENESIS_MUTATION, op.operationClass());
        assertTrue(
            ProtocolErrorCatalog.raisableBy(op.operationClass())
                .containsAll(
                    Set.of(
                        ProtocolErrorId.STALE_WORK_SESSION_REVISION,
                        ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH)));
      }
    }
  }

  @Test
  void mutationsNeverRaiseExportOnlyErrors() {
    for (ProtocolErrorId id :
        List.of(
            ProtocolErrorId.INVALID_EXPORT_STATE,
            ProtocolErrorId.INVALID_EVIDENCE_EXPORT_STATE,
            ProtocolErrorId.FORBIDDEN_EXPORT_FIELD)) {
      Set<OperationClass> classes = EnumSet.copyOf(ProtocolErrorCatalog.operationClasses(id));
      classes.removeAll(READS);
      assertEquals(Set.of(), classes, id.getValue());
    }
  }

  /**
   * Error ids the schema names itself: {@code x-jarvis-duplicate-rejection-id}s anywhere in it, and
   * {@code x-jarvis-invariants} spelled as an error id.
   */
  private static Set<ProtocolErrorId> rejectionIdsIn(JsonNode schema) {
    Set<ProtocolErrorId> ids = new LinkedHashSet<>();
    for (JsonNode id : schema.findValues("x-jarvis-duplicate-rejection-id")) {
      ids.add(ProtocolErrorId.fromValue(id.asText()));
    }
    Set<String> known =
        Arrays.stream(ProtocolErrorId.values())
            .map(ProtocolErrorId::getValue)
            .collect(Collectors.toSet());
    for (JsonNode invariant : schema.path("x-jarvis-invariants")) {
      if (known.contains(invariant.asText())) {
        ids.add(ProtocolErrorId.fromValue(invariant.asText()));
      }
    }
    return ids;
  }

  private static void requireRaisedBy(
      ProtocolErrorId id, Operation op, String why, List<String> gaps) {
    if (!ProtocolErrorCatalog.operationClasses(id).contains(op.operationClass())) {
      gaps.add(
          id.getValue()
              + " not raised by "
              + op.operationClass().wireName()
              + " ("
              + op.operationId()
              + " "
              + why
              + ")");
    }
  }
}
