package dev.jarvis.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.client.RequestResolution.Outcome;
import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.core.requestread.RequestRead;
import dev.jarvis.model.ApprovalBoundary;
import dev.jarvis.model.BlockingScope;
import dev.jarvis.model.PolicyActionRequest;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.Request;
import dev.jarvis.model.RequestStatus;
import dev.jarvis.model.Review;
import dev.jarvis.model.ReviewDecision;
import dev.jarvis.model.RiskClass;
import dev.jarvis.model.Takeover;
import dev.jarvis.samples.SampleRecords;
import dev.jarvis.testkit.JarvisHostStub;
import dev.jarvis.testkit.StubClock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An agent waiting for a human's answer ({@code awaitResolution}) against the stub host on
 * loopback, the human answering through the stub ({@code stub.human(...)}) or over HTTP with a
 * client of its own. Nothing sleeps: the client's waits are held until the test lets them pass, and
 * time moves only on the clock the stub and the client share.
 */
class AwaitResolutionTest {

  static final String HUMAN = "actor-human-1";
  static final String AGENT = "actor-agent-1";
  static final String POLICY = SampleRecords.POLICY_ID;
  static final Duration AN_HOUR = Duration.ofHours(1);

  final StubClock clock = StubClock.at("2026-06-12T18:00:00Z");
  final HeldWaits waits = new HeldWaits(clock);
  final List<String> sent = new CopyOnWriteArrayList<>();
  final AtomicInteger ids = new AtomicInteger();
  JarvisHostStub stub;
  JarvisClient client;
  JarvisClient agent;
  String ws;
  PolicyDecision decision;
  Request request;

  /**
   * The capabilities these tests' stub declares unless a test says otherwise: the event log read a
   * page at a time, so every wait of the await is one the test holds and releases. The await over a
   * live stream ({@code event-stream}) is {@code AwaitOverStreamTest}'s.
   */
  static final String[] POLLED =
      new String[] {
        JarvisHeaders.CURSOR_HEADERS_CAPABILITY,
        JarvisHeaders.EVENT_LOG_CAPABILITY,
        RequestRead.CAPABILITY
      };

  /** A stub declaring {@code capabilities}, a WorkSession, and the agent's pending Request. */
  void start(String... capabilities) {
    JarvisHostStub.Builder builder =
        JarvisHostStub.builder()
            .clock(clock)
            .capabilities(capabilities.length > 0 ? capabilities : POLLED);
    stub = builder.build().start();
    stub.givenWorker(SampleRecords.worker("worker-human-1", "human"))
        .givenWorker(SampleRecords.worker("worker-agent-1", "agent"))
        .givenActor(SampleRecords.actor(HUMAN, "worker-human-1", "human", "2026-06-12T17:00:00Z"))
        .givenActor(SampleRecords.actor(AGENT, "worker-agent-1", "agent", "2026-06-12T17:00:00Z"));
    client =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(stub.baseUri())
                .hostAuth("Bearer test")
                .actorId(AGENT)
                .clock(clock)
                .sleeper(waits)
                .idempotencyKeys(() -> "k" + ids.incrementAndGet())
                .addPerAttemptPolicy(
                    JarvisPolicy.named(
                        "sent",
                        (request, next) -> {
                          sent.add(request.operation().operationId());
                          return next.send(request);
                        }))
                .build());
    agent = client;
    JarvisClient human = client.as(HUMAN);
    ws =
        human
            .createWorkSession(
                human.records().workSession("Answer.", "worker-human-1", "worker-agent-1", POLICY))
            .getId();
    PolicyActionRequest fetch =
        ProtocolRecords.action(
            "fetch_external_source", "source:vendor-docs", "scope:source-collection");
    decision =
        agent.recordPolicyDecision(
            ws,
            agent
                .records()
                .policyDecision(
                    ws,
                    POLICY,
                    fetch,
                    RiskClass.MEDIUM,
                    PolicyDecisionResult.REVIEW_REQUIRED,
                    "Needs review.")
                .requestId(agent.records().newId("req")));
    request =
        agent.createRequest(
            ws, agent.records().request(decision, "worker-agent-1", "worker-human-1", AN_HOUR));
    sent.clear();
  }

  @AfterEach
  void everyRequestTheAgentSentWasOneAHostAccepts() {
    if (client != null) {
      client.close();
    }
    if (stub != null) {
      stub.close();
      assertEquals(List.of(), stub.receivedViolations());
      assertEquals(List.of(), stub.responseDefects());
    }
  }

  CompletableFuture<RequestResolution> awaiting(Duration timeout) {
    return agent.awaitResolutionAsync(ws, request.getId(), timeout);
  }

  static RequestResolution resolution(CompletableFuture<RequestResolution> awaited) {
    return awaited.orTimeout(20, java.util.concurrent.TimeUnit.SECONDS).join();
  }

  @Test
  void anAgentAwaitingIsApprovedWithTheApprovingReviewsScopeWhenTheHumanApproves() {
    start();
    CompletableFuture<RequestResolution> awaited = awaiting(AN_HOUR);
    HeldWaits.Wait first = waits.next(); // the agent has read the chain and the Request: waiting
    Review review = stub.human(HUMAN).approve(ws, request.getId());
    first.pass();

    RequestResolution answer = resolution(awaited);
    assertEquals(Outcome.APPROVED, answer.outcome());
    assertEquals(Optional.of(review.getApprovalScope()), answer.approval());
    RequestResolution.Resolved resolved =
        assertInstanceOf(RequestResolution.Resolved.class, answer);
    assertEquals(RequestStatus.APPROVED, resolved.request().getStatus());
    assertEquals(Optional.of(review), resolved.review());
    assertEquals(List.of(), stub.receivedViolations());
  }

  @Test
  void onTheStubsLiveStreamTheAwaitIsApprovedWithoutAnyOfItsWaitsPassing() {
    start(JarvisHostStub.DEFAULT_CAPABILITIES.toArray(String[]::new));
    CompletableFuture<RequestResolution> awaited = awaiting(AN_HOUR);
    Review review = stub.human(HUMAN).approve(ws, request.getId());

    RequestResolution answer = resolution(awaited);
    assertEquals(Outcome.APPROVED, answer.outcome());
    assertEquals(Optional.of(review.getApprovalScope()), answer.approval());
    assertEquals(List.of(), stub.receivedViolations());
  }

  @Test
  void aHumansReviewSentOverHttpByItsOwnClientEndsTheAwaitAsApproved() {
    start();
    CompletableFuture<RequestResolution> awaited = awaiting(AN_HOUR);
    HeldWaits.Wait first = waits.next();
    JarvisClient human = client.as(HUMAN);
    Review review =
        human.recordReview(
            ws,
            human
                .records()
                .approval(request, "worker-human-1", requestCursor(), Duration.ofMinutes(20)));
    first.pass();

    assertEquals(Optional.of(review.getApprovalScope()), resolution(awaited).approval());
  }

  @Test
  void aDeniedRequestEndsTheAwaitAsDeniedWithNoApproval() {
    start();
    CompletableFuture<RequestResolution> awaited = awaiting(AN_HOUR);
    HeldWaits.Wait first = waits.next();
    stub.human(HUMAN).deny(ws, request.getId());
    first.pass();

    RequestResolution answer = resolution(awaited);
    assertEquals(Outcome.DENIED, answer.outcome());
    assertEquals(Optional.empty(), answer.approval());
  }

  @Test
  void aNarrowedRequestCarriesTheNarrowerScopeTheHumanGave() {
    start();
    CompletableFuture<RequestResolution> awaited = awaiting(AN_HOUR);
    HeldWaits.Wait first = waits.next();
    Review review =
        stub.human(HUMAN)
            .narrow(
                ws,
                request.getId(),
                scope -> scope.allowedScope(new ApprovalBoundary().scopeRef("scope:vendor-docs")));
    first.pass();

    RequestResolution answer = resolution(awaited);
    assertEquals(Outcome.NARROWED, answer.outcome());
    assertEquals(
        "scope:vendor-docs", answer.approval().orElseThrow().getAllowedScope().getScopeRef());
    assertEquals(Optional.of(review.getApprovalScope()), answer.approval());
  }

  @Test
  void aReviewSendingTheRequestBackEndsTheAwaitAsNeedsRevisionWithNoApproval() {
    start();
    CompletableFuture<RequestResolution> awaited = awaiting(AN_HOUR);
    HeldWaits.Wait first = waits.next();
    stub.human(HUMAN).decide(ws, request.getId(), ReviewDecision.NEEDS_REVISION);
    first.pass();

    RequestResolution answer = resolution(awaited);
    assertEquals(Outcome.NEEDS_REVISION, answer.outcome());
    assertEquals(Optional.empty(), answer.approval());
  }

  @Test
  void aRequestLetExpireOnTheStubsClockEndsTheAwaitAsExpired() {
    start();
    CompletableFuture<RequestResolution> awaited = awaiting(Duration.ofHours(2));
    HeldWaits.Wait first = waits.next();
    Request expired = stub.human(HUMAN).letExpire(ws, request.getId());
    first.pass();

    RequestResolution answer = resolution(awaited);
    assertEquals(Outcome.EXPIRED, answer.outcome());
    assertEquals(Optional.empty(), answer.approval());
    assertEquals(
        expired.getClosedByEventRef(),
        ((RequestResolution.Resolved) answer).request().getClosedByEventRef());
  }

  @Test
  void aRequestNobodyAnswersExpiresWhileAwaitedBecauseTheAwaitsOwnReadsTouchTheWorkSession() {
    start();
    CompletableFuture<RequestResolution> awaited =
        agent.awaitResolutionAsync(ws, request.getId(), Duration.ofHours(2), minutePolls());
    waits.passAll(); // time passes, a minute a poll at most; nobody answers

    RequestResolution answer = resolution(awaited);
    assertEquals(Outcome.EXPIRED, answer.outcome());
    assertFalse(clock.instant().isBefore(request.getExpiresAt().toInstant()));
    assertTrue(
        clock.instant().isBefore(request.getExpiresAt().toInstant().plus(Duration.ofMinutes(2))),
        "seen within a poll of expiring: " + clock.instant());
  }

  @Test
  void anAwaitThatTimesOutIsNotAnApproval() {
    start();
    CompletableFuture<RequestResolution> awaited =
        agent.awaitResolutionAsync(ws, request.getId(), Duration.ofMinutes(10), minutePolls());
    waits.passAll();

    RequestResolution answer = resolution(awaited);
    assertEquals(Outcome.TIMED_OUT, answer.outcome());
    assertEquals(Optional.empty(), answer.approval());
    RequestResolution.Unresolved unresolved =
        assertInstanceOf(RequestResolution.Unresolved.class, answer);
    assertEquals(Duration.ofMinutes(10), unresolved.waited());
    assertEquals(
        RequestStatus.PENDING, unresolved.lastSeen().orElseThrow().getStatus(), "still open");
    assertEquals(Optional.empty(), unresolved.failure());
  }

  @Test
  void anApprovalRecordedAfterTheAwaitTimedOutIsNotReported() {
    start();
    CompletableFuture<RequestResolution> awaited = awaiting(Duration.ofSeconds(1));
    HeldWaits.Wait first = waits.next();
    assertEquals(Duration.ofMillis(200), first.duration());
    clock.advance(Duration.ofSeconds(1)); // time runs out during the wait
    first.pass();

    assertEquals(Outcome.TIMED_OUT, resolution(awaited).outcome());
    stub.human(HUMAN).approve(ws, request.getId()); // too late for this await
    assertEquals(Outcome.TIMED_OUT, resolution(awaited).outcome());
  }

  @Test
  void cancellingTheAwaitStopsItsReadsAndWaits() {
    start();
    CompletableFuture<RequestResolution> awaited = awaiting(AN_HOUR);
    HeldWaits.Wait first = waits.next();
    int reads = sent.size();
    assertTrue(awaited.cancel(true));
    first.pass();

    assertThrows(java.util.concurrent.CancellationException.class, awaited::join);
    assertEquals(reads, sent.size(), "no read after the cancellation: " + sent);
    assertEquals(0, waits.heldNow());
  }

  @Test
  void anInterruptedBlockingAwaitEndsAsCancelledByTheCaller() throws InterruptedException {
    start();
    AtomicReference<RequestResolution> answer = new AtomicReference<>();
    Thread waiting =
        new Thread(
            () -> answer.set(agent.awaitResolution(ws, request.getId(), AN_HOUR)), "agent-waiting");
    waiting.start();
    waits.next(); // it is waiting
    waiting.interrupt();
    waiting.join(20_000);

    assertFalse(waiting.isAlive());
    assertEquals(Outcome.CANCELLED_BY_CALLER, answer.get().outcome());
    assertEquals(Optional.empty(), answer.get().approval());
  }

  @Test
  void aRequestAnsweredBeforeTheAwaitResolvesAtOnceWithoutWaiting() {
    start();
    stub.human(HUMAN).approve(ws, request.getId());

    RequestResolution answer = agent.awaitResolution(ws, request.getId(), Duration.ZERO);
    assertEquals(Outcome.APPROVED, answer.outcome());
    assertEquals(0, waits.count());
  }

  @Test
  void aRequestSupersededByANewOneNamesTheNewRequest() {
    start();
    CompletableFuture<RequestResolution> awaited = awaiting(AN_HOUR);
    HeldWaits.Wait first = waits.next();
    Request newer =
        agent.createRequest(
            ws,
            agent
                .records()
                .request(decision, "worker-agent-1", "worker-human-1", AN_HOUR)
                .id(agent.records().newId("req"))
                .duplicateOfRequestId(request.getId()));
    first.pass();

    RequestResolution answer = resolution(awaited);
    assertEquals(Outcome.SUPERSEDED, answer.outcome());
    assertEquals(Optional.of(newer.getId()), ((RequestResolution.Resolved) answer).supersededBy());
    assertEquals(Optional.empty(), answer.approval());
  }

  @Test
  void aTakeoverNamingTheRequestEndsTheAwaitAsTakenOver() {
    start();
    CompletableFuture<RequestResolution> awaited = awaiting(AN_HOUR);
    HeldWaits.Wait first = waits.next();
    JarvisClient human = client.as(HUMAN);
    Takeover takeover =
        human.recordTakeover(
            ws,
            human
                .records()
                .takeover(ws, BlockingScope.ACTION, "scope:source-collection", "I fetch it myself.")
                .requestId(request.getId()));
    first.pass();

    RequestResolution answer = resolution(awaited);
    assertEquals(Outcome.TAKEN_OVER, answer.outcome());
    assertEquals(Optional.of(takeover.getId()), ((RequestResolution.Resolved) answer).takeoverId());
    assertEquals(Optional.empty(), answer.approval());
  }

  @Test
  void aHostWithoutTheEventLogIsWatchedByRereadingTheRequest() {
    start(JarvisHeaders.CURSOR_HEADERS_CAPABILITY, RequestRead.CAPABILITY);
    CompletableFuture<RequestResolution> awaited = awaiting(AN_HOUR);
    HeldWaits.Wait first = waits.next();
    stub.human(HUMAN).approve(ws, request.getId());
    first.pass();

    assertEquals(Outcome.APPROVED, resolution(awaited).outcome());
    assertEquals(
        List.of("getRequest", "getRequest", "getReview"),
        sent,
        "no event page asked of a host that does not declare the log: the Request read before"
            + " and after the wait, then the approving Review");
  }

  @Test
  void aHostWithoutRequestReadFailsTheAwaitBeforeItWaits() {
    start(JarvisHeaders.CURSOR_HEADERS_CAPABILITY, JarvisHeaders.EVENT_LOG_CAPABILITY);

    JarvisUnsupportedCapabilityException missing =
        assertThrows(
            JarvisUnsupportedCapabilityException.class,
            () -> agent.awaitResolution(ws, request.getId(), AN_HOUR));
    assertEquals(RequestRead.CAPABILITY, missing.capability());
    assertEquals(0, waits.count());
    // The stub lists a read of a capability it does not declare as a request no host serves.
    assertEquals(1, stub.receivedViolations().size());
    stub.reset();
  }

  @Test
  void anUnknownRequestIsARefusalNotAnOutcome() {
    start();
    CompletionException failed =
        assertThrows(
            CompletionException.class,
            () ->
                agent
                    .awaitResolutionAsync(ws, "req-nowhere", AN_HOUR)
                    .orTimeout(20, java.util.concurrent.TimeUnit.SECONDS)
                    .join());
    JarvisRefusalException refusal =
        assertInstanceOf(JarvisRefusalException.class, failed.getCause());
    assertEquals("unknown_state", refusal.errorId().getValue());
  }

  @Test
  void aHostLostForLongerThanThePolicyAllowsEndsAsHostLostWithTheFailure() {
    start();
    CompletableFuture<RequestResolution> awaited =
        agent.awaitResolutionAsync(
            ws,
            request.getId(),
            AN_HOUR,
            new AwaitPolicy(
                Duration.ofMillis(200), Duration.ofMillis(800), 2.0, Duration.ofSeconds(10)));
    HeldWaits.Wait first = waits.next();
    stub.stop(); // nothing listens on its port any more
    waits.passAll();
    first.pass();

    RequestResolution answer = resolution(awaited);
    assertEquals(Outcome.HOST_LOST, answer.outcome());
    assertEquals(Optional.empty(), answer.approval());
    RequestResolution.Unresolved lost = (RequestResolution.Unresolved) answer;
    assertInstanceOf(JarvisTransportException.class, lost.failure().orElseThrow());
    assertTrue(
        lost.waited().compareTo(Duration.ofSeconds(10)) >= 0
            && lost.waited().compareTo(Duration.ofSeconds(20)) < 0,
        "lost after about hostLostAfter of failures: " + lost.waited());
  }

  /** The cursor just after the agent's Request: what an approval binds the Request by. */
  private dev.jarvis.core.chain.ChainCursor requestCursor() {
    var events = stub.events(ws);
    var created =
        events.stream()
            .filter(e -> e.path("payload").path("object_id").asText().equals(request.getId()))
            .findFirst()
            .orElseThrow();
    return new dev.jarvis.core.chain.ChainCursor(
        created.path("sequence").asLong(), created.path("event_hash").asText());
  }

  private static AwaitPolicy minutePolls() {
    return new AwaitPolicy(
        Duration.ofSeconds(1), Duration.ofMinutes(1), 2.0, Duration.ofSeconds(30));
  }
}
