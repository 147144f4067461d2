package dev.jarvis.core.validation;

import static dev.jarvis.core.validation.Expect.VALIDATOR;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jarvis.core.error.ProtocolViolation;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class PayloadValidatorApiTest {

  @Test
  void forSpecIsBuiltOnceAndShared() {
    assertSame(PayloadValidator.forSpec(), PayloadValidator.forSpec());
  }

  @ParameterizedTest(name = "{0} takes a {1} body")
  @CsvSource({
    "registerWorker, Worker",
    "registerActor, Actor",
    "createWorkSession, WorkSession",
    "appendJarvisEvent, JarvisEvent",
    "recordPolicyDecision, PolicyDecision",
    "createRequest, Request",
    "recordReview, Review",
    "recordTakeover, Takeover",
    "recordContribution, Contribution",
    "createLearningRecord, LearningRecord",
    "createMemoryProposal, MemoryProposal",
    "createSkillProposal, SkillProposal",
    "submitOutcomeReport, OutcomeReport"
  })
  void requestBodySchemaIsReadFromThePaths(String operationId, String schema) {
    assertEquals(schema, VALIDATOR.requestBodySchema(operationId));
  }

  @ParameterizedTest(name = "{0} takes no body, so asking to validate one is a programming error")
  @ValueSource(strings = {"getWorkSession", "exportEvidenceManifest"})
  void operationWithoutBodyIsRefused(String operationId) {
    assertThrows(
        IllegalArgumentException.class, () -> VALIDATOR.validateRequestBody(operationId, "{}"));
  }

  @Test
  void unknownOperationOrSchemaIsAProgrammingError() {
    assertThrows(
        IllegalArgumentException.class, () -> VALIDATOR.validateRequestBody("deleteAll", "{}"));
    assertThrows(IllegalArgumentException.class, () -> VALIDATOR.validate("Invoice", "{}"));
  }

  @Test
  void requestBodyIsValidatedAgainstItsSchema() {
    Expect.clean(
        VALIDATOR.validateRequestBody(
            "recordPolicyDecision", Payloads.valid("PolicyDecision").toString()));
    Expect.only(
        VALIDATOR.validateRequestBody(
            "recordPolicyDecision", Payloads.edited("PolicyDecision", n -> n.remove("request_id"))),
        "request_unresolved",
        "/request_id");
  }

  @ParameterizedTest(name = "a {0} violation has object_type {1}")
  @CsvSource({
    "PolicyDecision, policy_decision",
    "WorkSession, work_session",
    "JarvisEvent, jarvis_event",
    "EvidenceManifest, evidence_manifest",
    "Worker, worker"
  })
  void objectTypeIsTheSnakeCaseOfTheSchema(String schema, String objectType) {
    List<ProtocolViolation> result = VALIDATOR.validate(schema, "{\"colour\": 1}");
    result.forEach(v -> assertEquals(objectType, v.objectType()));
  }

  @Test
  void resultIsOrderedByPointerWithIndexesAsNumbersThenByErrorId() {
    String json =
        Payloads.edited(
            "Request",
            n -> {
              var options = Payloads.array(n, "options");
              for (int i = 0; i < 10; i++) {
                options.add(options.get(0).deepCopy());
              }
              ((com.fasterxml.jackson.databind.node.ObjectNode) options.get(10)).put("id", "");
              ((com.fasterxml.jackson.databind.node.ObjectNode) options.get(2)).put("id", "");
              n.put("status", "pending").put("resolved_at", "x");
            });
    List<String> got =
        VALIDATOR.validate("Request", json).stream()
            .map(v -> v.field() + " " + v.errorId().getValue())
            .toList();
    assertEquals(
        List.of(
            "/options/2/id unknown_state",
            "/options/10/id unknown_state",
            "/resolved_at invalid_request_transition",
            "/resolved_at unknown_state"),
        got);
  }

  @Test
  void concurrentCallsGiveTheSameAnswers() throws Exception {
    String json = Payloads.edited("Takeover", n -> n.put("state", "resumed").put("lock_epoch", -1));
    List<ProtocolViolation> expected = VALIDATOR.validate("Takeover", json);
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<List<ProtocolViolation>>> results =
          IntStream.range(0, 200)
              .mapToObj(i -> pool.submit(() -> VALIDATOR.validate("Takeover", json)))
              .toList();
      for (Future<List<ProtocolViolation>> result : results) {
        assertEquals(expected, result.get());
      }
    } finally {
      pool.shutdown();
    }
  }
}
