package dev.jarvis.core.records;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.canonical.Sha256Hash;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.hash.ActionHash;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.BlockingScope;
import dev.jarvis.model.ContributionRole;
import dev.jarvis.model.ContributionType;
import dev.jarvis.model.ContributorType;
import dev.jarvis.model.LearningSubjectType;
import dev.jarvis.model.PolicyActionRequest;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.ProposalTargetType;
import dev.jarvis.model.Request;
import dev.jarvis.model.ReviewDecision;
import dev.jarvis.model.RiskClass;
import dev.jarvis.model.WorkSession;
import dev.jarvis.model.WorkerType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ProtocolRecordsTest {

  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-06-12T18:00:00.123Z"), ZoneOffset.UTC);
  private static final PolicyActionRequest FETCH =
      ProtocolRecords.action("fetch_external_source", "source:docs", "scope:sources");

  private static ProtocolRecords records() {
    AtomicInteger ids = new AtomicInteger();
    return new ProtocolRecords(CLOCK, () -> "n" + ids.incrementAndGet(), "actor-agent-1");
  }

  private static PolicyDecision decision(ProtocolRecords r) {
    return r.policyDecision(
            "ws-1", "policy-1", FETCH, RiskClass.MEDIUM, PolicyDecisionResult.REVIEW_REQUIRED, "r")
        .requestId("req-1");
  }

  private static Request request(ProtocolRecords r) {
    return r.request(decision(r), "worker-agent-1", "worker-human-1", Duration.ofHours(1));
  }

  static Stream<Arguments> everyFactory() {
    return Stream.of(
        Arguments.of(
            "Worker",
            (Function<ProtocolRecords, Object>)
                r -> r.worker("worker-1", WorkerType.HUMAN, "reviewer")),
        Arguments.of(
            "Actor",
            (Function<ProtocolRecords, Object>)
                r -> r.actor("actor-1", "worker-1", ActorType.AGENT)),
        Arguments.of(
            "WorkSession",
            (Function<ProtocolRecords, Object>)
                r -> r.workSession("An objective.", "worker-h", "worker-a", "policy-1")),
        Arguments.of(
            "PolicyDecision", (Function<ProtocolRecords, Object>) ProtocolRecordsTest::decision),
        Arguments.of("Request", (Function<ProtocolRecords, Object>) ProtocolRecordsTest::request),
        Arguments.of(
            "Review",
            (Function<ProtocolRecords, Object>)
                r -> r.review(request(r), "worker-human-1", ReviewDecision.DENY)),
        Arguments.of(
            "Review",
            (Function<ProtocolRecords, Object>)
                r ->
                    r.approval(
                        request(r),
                        "worker-human-1",
                        new ChainCursor(3, "sha256:" + "0".repeat(64)),
                        Duration.ofMinutes(5))),
        Arguments.of(
            "Contribution",
            (Function<ProtocolRecords, Object>)
                r ->
                    r.contribution(
                        "ws-1",
                        ContributorType.AGENT,
                        ContributionType.EXECUTION,
                        List.of(
                            ProtocolRecords.contributor(
                                "worker-a", "actor-a", ContributionRole.AGENT)),
                        "event-1")),
        Arguments.of(
            "Takeover",
            (Function<ProtocolRecords, Object>)
                r ->
                    r.takeover(
                        "ws-1", BlockingScope.BRANCH, "scope:wording", "The human words it.")),
        Arguments.of(
            "LearningRecord",
            (Function<ProtocolRecords, Object>)
                r ->
                    r.learningRecord(
                        "ws-1",
                        LearningSubjectType.PAIR,
                        "pair:a+b",
                        "process",
                        "scope:project",
                        "event-1")),
        Arguments.of(
            "MemoryProposal",
            (Function<ProtocolRecords, Object>)
                r ->
                    r.memoryProposal(
                        "ws-1",
                        ProposalTargetType.AGENT,
                        "scope:project",
                        "preference",
                        "Ask first.",
                        0.8,
                        "event:event-1")),
        Arguments.of(
            "Worker",
            (Function<ProtocolRecords, Object>)
                r ->
                    r.worker(
                        "worker-1",
                        WorkerType.AGENT,
                        "assistant",
                        List.of("grant:work"),
                        List.of("outcome"))),
        Arguments.of(
            "WorkSession",
            (Function<ProtocolRecords, Object>)
                r -> r.workSession("ws-chosen", "An objective.", "worker-h", "worker-a", "p-1")),
        Arguments.of(
            "Review",
            (Function<ProtocolRecords, Object>)
                r -> r.review("ws-1", "request:req-1", "worker-human-1", ReviewDecision.DENY)),
        Arguments.of(
            "ApprovalScope",
            (Function<ProtocolRecords, Object>)
                r ->
                    r.approvalScope(
                        request(r),
                        "review-1",
                        new ChainCursor(3, "sha256:" + "0".repeat(64)),
                        Duration.ofMinutes(5))),
        Arguments.of(
            "OutcomeReport",
            (Function<ProtocolRecords, Object>)
                r ->
                    r.outcomeReport(
                        "ws-1", "source:survey", "reporter:1", "It worked.", "learning-1")));
  }

  @ParameterizedTest(name = "{0} as built is a valid record")
  @MethodSource("everyFactory")
  void everyFactoryBuildsARecordTheSpecAccepts(
      String schema, Function<ProtocolRecords, Object> build) {
    JsonNode json = JarvisJson.mapper().valueToTree(build.apply(records()));

    assertEquals(List.of(), PayloadValidator.forSpec().validate(schema, json), json::toString);
  }

  @Test
  void aWorkSessionCarriesTheGenesisFieldsTheSpecRequires() {
    WorkSession s = records().workSession("An objective.", "worker-h", "worker-a", "policy-1");

    assertEquals("ws-n1", s.getId());
    assertEquals(0, s.getRevision());
    assertEquals(Sha256Hash.GENESIS, s.getLastEventHash());
    assertEquals("event-log:ws-n1", s.getEventLogRef());
    assertEquals("actor-agent-1", s.getCreatedByActorId());
    assertEquals(Instant.parse("2026-06-12T18:00:00Z"), s.getCreatedAt().toInstant());
  }

  @Test
  void anApprovalBindsTheRequestItsActionAndTheCursor() {
    ProtocolRecords r = records();
    Request request = request(r);

    var scope =
        r.approval(
                request, "worker-human-1", new ChainCursor(3, "sha256:abc"), Duration.ofMinutes(5))
            .getApprovalScope();

    assertEquals(request.getId(), scope.getRequestId());
    assertEquals(3, scope.getRequestRevision());
    assertEquals("sha256:abc", scope.getRequestEventHash());
    assertEquals(ActionHash.of(FETCH), scope.getNormalizedActionHash());
    assertEquals("actor-agent-1", scope.getAppliesToActorId());
    assertEquals(1, scope.getMaxUses());
  }

  @Test
  void anActionHashesAlikeAsARecordAndAsJson() {
    JsonNode json = JarvisJson.mapper().valueToTree(FETCH);

    assertEquals(ActionHash.of(json), ActionHash.of(FETCH));
  }

  @Test
  void aWorkSessionWithAChosenIdKeepsItsEventLogRefInStep() {
    WorkSession s = records().workSession("ws-chosen", "An objective.", "wh", "wa", "policy-1");

    assertEquals("ws-chosen", s.getId());
    assertEquals("event-log:ws-chosen", s.getEventLogRef());
  }

  @Test
  void anAddressedEventIsTheEventDraftWithItsIdWorkSessionActorAndTime() {
    var event =
        records()
            .addressedEvent(
                "ws-1",
                "note.added",
                dev.jarvis.model.JarvisEventPayload.ObjectTypeEnum.WORK_SESSION,
                "ws-1",
                "added");

    assertEquals("evt-n1", event.getId());
    assertEquals("ws-1", event.getWorkSessionId());
    assertEquals("actor-agent-1", event.getActorId());
    assertEquals(Instant.parse("2026-06-12T18:00:00Z"), event.getTimestamp().toInstant());
    assertEquals(
        ProtocolRecords.event(
                "note.added",
                dev.jarvis.model.JarvisEventPayload.ObjectTypeEnum.WORK_SESSION,
                "ws-1",
                "added")
            .getPayload(),
        event.getPayload());
  }
}
