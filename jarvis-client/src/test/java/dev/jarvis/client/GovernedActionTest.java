package dev.jarvis.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.client.governed.ActionReport;
import dev.jarvis.client.governed.GovernedAction;
import dev.jarvis.client.governed.GovernedOptions;
import dev.jarvis.client.governed.GovernedOutcome;
import dev.jarvis.client.governed.GovernedOutcome.AlreadyRecorded;
import dev.jarvis.client.governed.GovernedOutcome.Denied;
import dev.jarvis.client.governed.GovernedOutcome.Done;
import dev.jarvis.client.governed.GovernedOutcome.Failed;
import dev.jarvis.client.governed.GovernedOutcome.NotApproved;
import dev.jarvis.client.governed.GovernedOutcome.Stage;
import dev.jarvis.client.governed.Permit;
import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.hash.ActionHash;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.core.requestread.RequestRead;
import dev.jarvis.model.ApprovalBoundary;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.JarvisEventPayload;
import dev.jarvis.model.Policy;
import dev.jarvis.model.PolicyActionRequest;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.Request;
import dev.jarvis.model.ReviewDecision;
import dev.jarvis.model.RiskClass;
import dev.jarvis.samples.SampleRecords;
import dev.jarvis.testkit.Fault;
import dev.jarvis.testkit.JarvisHostStub;
import dev.jarvis.testkit.StubClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Governed actions ({@code client.governed(ws)}) against the stub host: every branch, the human
 * answering through the stub the moment the agent's Request is created. Nothing sleeps: the
 * client's waits pass at once and move the clock the stub and the client share.
 */
class GovernedActionTest {

  static final String HUMAN = "actor-human-1";
  static final String AGENT = "actor-agent-1";
  static final String POLICY_ID = "policy-governed-1";

  /** The Policy these tests' WorkSessions are held to, owned by their human Worker. */
  static final String POLICY =
      """
      {"id": "policy-governed-1", "owner_worker_id": "worker-human-1",
       "created_by_actor_id": "actor-human-1", "autonomy_level": "bounded_execute",
       "allowed_actions": [{"action": "summarize"},
                           {"action": "draft_reply", "constraints": [{"kind": "max_words", "max_count": 200}]},
                           {"action": "read_source", "scope_ref": "scope:docs"}],
       "denied_actions": [{"action": "delete_repository"}],
       "review_required_actions": [{"action": "fetch_external_source"}],
       "risk_classes": ["low", "medium", "high"],
       "escalation_rules": [],
       "created_at": "2026-01-01T00:00:00Z", "tool_grants": ["tool:search"]}
      """;

  final StubClock clock = StubClock.at("2026-06-12T18:00:00Z");
  final HeldWaits waits = new HeldWaits(clock);
  final AtomicInteger ids = new AtomicInteger();
  final AtomicInteger ran = new AtomicInteger();
  final AtomicReference<Consumer<String>> human = new AtomicReference<>(id -> {});
  final Policy policy = bind(POLICY, Policy.class);
  JarvisHostStub stub;
  JarvisClient agent;
  String ws;

  /** A stub without {@code event-stream}, so every wait of an await is the test's to pass. */
  void start() {
    stub =
        JarvisHostStub.builder()
            .clock(clock)
            .policy(JarvisJson.mapper().valueToTree(policy))
            .capabilities(
                JarvisHeaders.CURSOR_HEADERS_CAPABILITY,
                JarvisHeaders.EVENT_LOG_CAPABILITY,
                RequestRead.CAPABILITY)
            .build()
            .start();
    stub.givenWorker(SampleRecords.worker("worker-human-1", "human"))
        .givenWorker(SampleRecords.worker("worker-agent-1", "agent"))
        .givenActor(SampleRecords.actor(HUMAN, "worker-human-1", "human", "2026-06-12T17:00:00Z"))
        .givenActor(SampleRecords.actor(AGENT, "worker-agent-1", "agent", "2026-06-12T17:00:00Z"));
    agent =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(stub.baseUri())
                .hostAuth("Bearer test")
                .actorId(AGENT)
                .clock(clock)
                .sleeper(waits)
                .idempotencyKeys(() -> "k" + ids.incrementAndGet())
                .addPerCallPolicy(
                    JarvisPolicy.named(
                        "human-answers",
                        (request, next) ->
                            next.send(request)
                                .thenApply(
                                    answer -> {
                                      if (request
                                          .operation()
                                          .operationId()
                                          .equals("createRequest")) {
                                        human
                                            .get()
                                            .accept(
                                                request
                                                    .body()
                                                    .orElseThrow()
                                                    .path(Request.JSON_PROPERTY_ID)
                                                    .asText());
                                      }
                                      return answer;
                                    })))
                .build());
    JarvisClient asHuman = agent.as(HUMAN);
    ws =
        asHuman
            .createWorkSession(
                asHuman
                    .records()
                    .workSession("Answer.", "worker-human-1", "worker-agent-1", POLICY_ID))
            .getId();
    waits.passAll();
  }

  @AfterEach
  void stop() {
    if (agent != null) {
      agent.close();
    }
    if (stub != null) {
      stub.close();
    }
  }

  GovernedOptions knowingThePolicy() {
    return GovernedOptions.builder()
        .policy(policy)
        .reviewWait(Duration.ofMinutes(30))
        .awaitPolicy(minutePolls())
        .build();
  }

  static AwaitPolicy minutePolls() {
    return new AwaitPolicy(
        Duration.ofSeconds(30), Duration.ofMinutes(1), 2.0, Duration.ofMinutes(5));
  }

  /** A reviewed fetch, its wait and its Request's life as given, run with the counting work. */
  GovernedOutcome<String> fetchWaiting(Duration wait, Duration open) {
    GovernedOptions options =
        knowingThePolicy().toBuilder().reviewWait(wait).requestExpiresIn(open).build();
    return action("fetch_external_source", options).build().run(this::work);
  }

  GovernedAction.Builder action(String name, GovernedOptions options) {
    return agent.governed(ws, options).action(name).risk(RiskClass.LOW);
  }

  String work(Permit permit) {
    ran.incrementAndGet();
    return "worked on " + permit.action().getAction();
  }

  List<ObjectNode> events(String type) {
    return stub.events(ws).stream()
        .filter(e -> e.path(JarvisEvent.JSON_PROPERTY_TYPE).asText().equals(type))
        .toList();
  }

  // ---- allow, narrow, deny ----

  @Test
  void anAllowedActionRunsOnceAndItsEventCitesTheDecision() {
    start();
    GovernedOutcome<String> outcome =
        action("summarize", knowingThePolicy())
            .build()
            .run(this::work, r -> new ActionReport("Summarized.", Set.of("artifact:summary-1")));

    Done<String> done = expect(Done.class, outcome);
    assertEquals("worked on summarize", done.result());
    assertEquals(1, ran.get());
    JarvisEventPayload payload = done.event().getPayload();
    assertEquals("Summarized.", payload.getSummary());
    assertTrue(payload.getEvidenceRefs().contains("artifact:summary-1"));
    assertTrue(
        payload.getEvidenceRefs().stream().anyMatch(r -> r.startsWith("policy_decision:pd-")));
    assertEquals(GovernedOptions.PERFORMED_EVENT_TYPE, done.event().getType());
    assertEquals("Done: Summarized.", outcome.forModel());
    assertEquals(List.of(), stub.receivedViolations());
  }

  @Test
  void anActionAllowedOnlyWithinConstraintsIsRecordedAsNarrowAndRuns() {
    start();
    GovernedOutcome<String> outcome =
        action("draft_reply", knowingThePolicy()).build().run(this::work);

    Done<String> done = expect(Done.class, outcome);
    assertEquals(1, ran.get());
    assertTrue(done.event().getPayload().getObjectId().endsWith("-narrow"), "a narrow decision");
  }

  @Test
  void anActionAllowedInOneScopeRunsThereAndIsDeniedInAnother() {
    start();
    GovernedOutcome<String> inScope =
        action("read_source", knowingThePolicy()).scope("scope:docs").build().run(this::work);
    GovernedOutcome<String> elsewhere =
        action("read_source", knowingThePolicy()).scope("scope:secrets").build().run(this::work);

    expect(Done.class, inScope);
    expect(Denied.class, elsewhere);
    assertEquals(1, ran.get(), "only the one in scope ran");
  }

  @Test
  void aDeniedToolNeverRunsAndTheModelIsToldWhy() {
    start();
    GovernedOutcome<String> outcome =
        action("delete_repository", knowingThePolicy()).build().run(this::work);

    Denied<String> denied = expect(Denied.class, outcome);
    assertEquals(0, ran.get());
    assertEquals(PolicyDecisionResult.DENY, denied.decision().getResult());
    assertTrue(outcome.forModel().contains("denies delete_repository"), outcome.forModel());
    assertEquals(List.of(), events(GovernedOptions.PERFORMED_EVENT_TYPE));
  }

  @Test
  void aLookAlikeOfAnAllowedActionIsDenied() {
    start();
    GovernedOutcome<String> outcome =
        action("summarize\u200b", knowingThePolicy()).build().run(this::work);

    expect(Denied.class, outcome);
    assertEquals(0, ran.get());
  }

  // ---- review ----

  @Test
  void aReviewedToolWaitsForTheHumanAndRunsOnceWithinTheApproval() {
    start();
    human.set(requestId -> stub.human(HUMAN).approve(ws, requestId));
    AtomicReference<Permit> seen = new AtomicReference<>();
    GovernedOutcome<String> outcome =
        action("fetch_external_source", knowingThePolicy())
            .target("source:vendor-docs")
            .build()
            .run(
                permit -> {
                  seen.set(permit);
                  return work(permit);
                });

    expect(Done.class, outcome);
    assertEquals(1, ran.get());
    assertTrue(seen.get().approval().isPresent());
    assertEquals(Optional.of(1L), seen.get().approval().map(s -> s.getMaxUses()));
    assertTrue(seen.get().expiresAt().isPresent());
    assertEquals(List.of(), stub.receivedViolations());
  }

  @Test
  void aNarrowedReviewRunsTheWorkOnTheNarrowedAction() {
    start();
    human.set(
        requestId ->
            stub.human(HUMAN)
                .narrow(
                    ws,
                    requestId,
                    s -> s.allowedScope(new ApprovalBoundary().scopeRef("scope:first-page"))));
    AtomicReference<Permit> seen = new AtomicReference<>();
    GovernedOutcome<String> outcome =
        action("fetch_external_source", knowingThePolicy())
            .build()
            .run(
                permit -> {
                  seen.set(permit);
                  return work(permit);
                });

    expect(Done.class, outcome);
    assertEquals(
        "scope:first-page", seen.get().approval().orElseThrow().getAllowedScope().getScopeRef());
  }

  @Test
  void aToolTheHumanDeniesNeverRuns() {
    start();
    human.set(requestId -> stub.human(HUMAN).deny(ws, requestId));
    GovernedOutcome<String> outcome =
        action("fetch_external_source", knowingThePolicy()).build().run(this::work);

    NotApproved<String> notApproved = expect(NotApproved.class, outcome);
    assertEquals(RequestResolution.Outcome.DENIED, notApproved.resolution().outcome());
    assertEquals(0, ran.get());
    assertTrue(outcome.forModel().contains("The human denied it."), outcome.forModel());
  }

  @Test
  void aToolTheHumanOnlyAnswersNeverRuns() {
    start();
    human.set(requestId -> stub.human(HUMAN).decide(ws, requestId, ReviewDecision.ANSWER));
    GovernedOutcome<String> outcome =
        action("fetch_external_source", knowingThePolicy()).build().run(this::work);

    expect(NotApproved.class, outcome);
    assertEquals(0, ran.get());
  }

  @Test
  void aRequestThatExpiresUnansweredNeverRunsTheTool() {
    start();
    GovernedOutcome<String> outcome = fetchWaiting(Duration.ofHours(2), Duration.ofHours(1));

    NotApproved<String> notApproved = expect(NotApproved.class, outcome);
    assertEquals(RequestResolution.Outcome.EXPIRED, notApproved.resolution().outcome());
    assertEquals(0, ran.get());
  }

  @Test
  void aWaitThatTimesOutIsNeverDoneAndTheToolNeverRuns() {
    start();
    GovernedOutcome<String> outcome = fetchWaiting(Duration.ofMinutes(10), Duration.ofHours(1));

    NotApproved<String> notApproved = expect(NotApproved.class, outcome);
    assertEquals(RequestResolution.Outcome.TIMED_OUT, notApproved.resolution().outcome());
    assertEquals(0, ran.get());
    assertTrue(outcome.forModel().contains("No answer came"), outcome.forModel());
  }

  @Test
  void anApprovalThatExpiredBeforeTheAgentSawItDoesNotRunTheTool() {
    start();
    human.set(
        requestId -> {
          stub.human(HUMAN)
              .approve(ws, requestId, s -> s.expiresAt(s.getExpiresAt().minusMinutes(59)));
          clock.advance(
              Duration.ofMinutes(2)); // the approval's minute passes before the agent looks
        });
    GovernedOutcome<String> outcome =
        action("fetch_external_source", knowingThePolicy()).build().run(this::work);

    NotApproved<String> notApproved = expect(NotApproved.class, outcome);
    assertTrue(notApproved.reason().startsWith("The approval expired"), notApproved.reason());
    assertEquals(0, ran.get());
  }

  // ---- the host's word, failures ----

  @Test
  void anAgentThatDoesNotKnowThePolicyRecordsTheStricterResultTheHostNames() {
    start();
    human.set(requestId -> stub.human(HUMAN).approve(ws, requestId));
    GovernedOutcome<String> outcome =
        agent
            .governed(ws, GovernedOptions.builder().awaitPolicy(minutePolls()).build())
            .action("fetch_external_source")
            .risk(RiskClass.LOW)
            .build()
            .run(this::work);

    Done<String> done = expect(Done.class, outcome);
    assertTrue(done.event().getPayload().getObjectId().endsWith("-review"), "review_required");
    assertEquals(1, events("policy_decision.recorded").size(), "one decision recorded");
    assertEquals(1, ran.get());
  }

  @Test
  void anAgentThatDoesNotKnowThePolicyRecordsNarrowWhereTheHostAllowsNoMore() {
    start();
    GovernedOutcome<String> outcome =
        agent.governed(ws).action("draft_reply").risk(RiskClass.LOW).build().run(this::work);

    Done<String> done = expect(Done.class, outcome);
    assertTrue(done.event().getPayload().getObjectId().endsWith("-narrow"), "narrow");
    assertEquals(1, ran.get());
  }

  @Test
  void aDecisionAnotherMemberRecordedUnderTheActionsIdDoesNotLetTheToolRun() throws Exception {
    start();
    // The human knows the agent's next tool-call id and derives the decision id its run would
    // look for (the digest is no secret), then records a decision of its own under it.
    PolicyActionRequest summarize = ProtocolRecords.action("summarize", null, null);
    MessageDigest sha = MessageDigest.getInstance("SHA-256");
    for (String part : List.of(ws, AGENT, "call-7", ActionHash.of(summarize), "low")) {
      sha.update(part.getBytes(StandardCharsets.UTF_8));
      sha.update((byte) 0);
    }
    String id = "pd-" + HexFormat.of().formatHex(sha.digest(), 0, 16) + "-allow";
    JarvisClient asHuman = agent.as(HUMAN);
    asHuman.recordPolicyDecision(
        ws,
        asHuman
            .records()
            .policyDecision(
                ws, POLICY_ID, summarize, RiskClass.LOW, PolicyDecisionResult.ALLOW, "Mine.")
            .id(id));

    GovernedOutcome<String> outcome =
        action("summarize", knowingThePolicy()).key("call-7").build().run(this::work);

    Failed<String> failed = expect(Failed.class, outcome);
    assertEquals(Stage.DECIDE, failed.stage(), "the agent's own decision is refused: id taken");
    assertEquals(0, ran.get());
  }

  @Test
  void anAgentThatDoesNotKnowThePolicyIsDeniedWhereTheHostDenies() {
    start();
    GovernedOutcome<String> outcome =
        agent.governed(ws).action("delete_repository").risk(RiskClass.LOW).build().run(this::work);

    Denied<String> denied = expect(Denied.class, outcome);
    assertTrue(denied.reason().contains("/denied_actions/0"), denied.reason());
    assertEquals(0, ran.get());
  }

  @Test
  void aToolThatThrowsIsRecordedAsAFailureEvent() {
    start();
    GovernedOutcome<String> outcome =
        action("summarize", knowingThePolicy())
            .build()
            .run(
                permit -> {
                  throw new IOException("secret-token-123 leaked in a message");
                });

    Failed<String> failed = expect(Failed.class, outcome);
    assertEquals(Stage.WORK, failed.stage());
    assertInstanceOf(IOException.class, failed.cause());
    JarvisEvent event = failed.event().orElseThrow();
    assertEquals(GovernedOptions.FAILED_EVENT_TYPE, event.getType());
    assertEquals("summarize failed: IOException.", event.getPayload().getSummary());
    assertFalse(outcome.forModel().contains("secret-token-123"), outcome.forModel());
    assertFalse(outcome.isDone());
  }

  @Test
  void aLostHostBeforeTheDecisionIsNeverDoneAndTheToolNeverRuns() {
    start();
    stub.faultNext("recordPolicyDecision", Fault.CONNECTION_RESET_BY_PEER);
    stub.faultNext("recordPolicyDecision", Fault.CONNECTION_RESET_BY_PEER);
    stub.faultNext("recordPolicyDecision", Fault.CONNECTION_RESET_BY_PEER);
    stub.faultNext("recordPolicyDecision", Fault.CONNECTION_RESET_BY_PEER);
    GovernedOutcome<String> outcome =
        action("summarize", knowingThePolicy()).build().run(this::work);

    Failed<String> failed = expect(Failed.class, outcome);
    assertEquals(Stage.DECIDE, failed.stage());
    assertFalse(failed.workRan());
    assertEquals(0, ran.get());
  }

  // ---- crash and re-run ----

  @Test
  void aReRunWithTheSameKeyAfterTheActionWasRecordedDoesNotRunTheToolAgain() {
    start();
    GovernedAction first = action("summarize", knowingThePolicy()).key("call-1").build();
    expect(Done.class, first.run(this::work));

    GovernedOutcome<String> again =
        action("summarize", knowingThePolicy()).key("call-1").build().run(this::work);

    AlreadyRecorded<String> recorded = expect(AlreadyRecorded.class, again);
    assertTrue(recorded.succeeded());
    assertEquals(1, ran.get());
    assertEquals(1, events("policy_decision.recorded").size());
  }

  @Test
  void aReRunAfterACrashBeforeTheRequestResumesWithoutASecondDecision() {
    start();
    human.set(requestId -> stub.human(HUMAN).approve(ws, requestId));
    stub.onNext("createRequest", ws).refuse(dev.jarvis.model.ProtocolErrorId.UNKNOWN_STATE);
    GovernedOutcome<String> crashed =
        action("fetch_external_source", knowingThePolicy()).key("call-2").build().run(this::work);
    Failed<String> crash = expect(Failed.class, crashed);
    assertEquals(Stage.REQUEST, crash.stage());

    GovernedOutcome<String> resumed =
        action("fetch_external_source", knowingThePolicy()).key("call-2").build().run(this::work);

    expect(Done.class, resumed);
    assertEquals(1, ran.get());
    assertEquals(
        1, events("policy_decision.recorded").size(), "the decision is not recorded twice");
    assertEquals(1, events("request.created").size());
  }

  @Test
  void aReRunWhileTheRequestIsOpenWaitsOnTheSameRequest() {
    start();
    GovernedOptions shortWait =
        knowingThePolicy().toBuilder()
            .reviewWait(Duration.ofMinutes(5))
            .requestExpiresIn(Duration.ofHours(1))
            .build();
    GovernedOutcome<String> timedOut =
        action("fetch_external_source", shortWait).key("call-3").build().run(this::work);
    NotApproved<String> first = expect(NotApproved.class, timedOut);
    stub.human(HUMAN).approve(ws, first.resolution().requestId());

    GovernedOutcome<String> resumed =
        action("fetch_external_source", shortWait).key("call-3").build().run(this::work);

    expect(Done.class, resumed);
    assertEquals(1, ran.get());
    assertEquals(1, events("request.created").size(), "no second Request");
  }

  @Test
  void theSameKeyForAnotherActionNamesAnotherAction() {
    start();
    assertInstanceOf(
        Done.class, action("summarize", knowingThePolicy()).key("call-4").build().run(this::work));
    GovernedOutcome<String> other =
        action("summarize", knowingThePolicy())
            .key("call-4")
            .target("doc:other")
            .build()
            .run(this::work);

    expect(Done.class, other);
    assertEquals(2, ran.get());
  }

  /** The outcome as the type expected, or the test fails. */
  @SuppressWarnings("unchecked")
  static <O extends GovernedOutcome<String>> O expect(
      Class<?> type, GovernedOutcome<String> outcome) {
    return (O) assertInstanceOf(type, outcome, () -> "was " + outcome + ": " + outcome.forModel());
  }

  static <T> T bind(String json, Class<T> type) {
    try {
      JsonNode tree = JarvisJson.mapper().readTree(json);
      return JarvisJson.mapper().treeToValue(tree, type);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
