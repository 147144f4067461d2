package dev.jarvis.testkit;

import static dev.jarvis.testkit.StubWorld.AGENT;
import static dev.jarvis.testkit.StubWorld.AGENT_WORKER;
import static dev.jarvis.testkit.StubWorld.HUMAN;
import static dev.jarvis.testkit.StubWorld.HUMAN_WORKER;
import static dev.jarvis.testkit.StubWorld.SESSION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.model.ApprovalBoundary;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.Request;
import dev.jarvis.model.RequestStatus;
import dev.jarvis.model.Review;
import dev.jarvis.model.ReviewDecision;
import dev.jarvis.model.RiskClass;
import dev.jarvis.samples.SampleRecords;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code stub.human(...)}: a test answering a Request as the human would, through the stub's own
 * engine, so what the host shows afterwards (events, the Request over HTTP) is a real host's.
 */
class StubHumanTest {

  static final String REQUEST = "req-1";

  final StubClock clock = StubClock.at("2026-06-12T18:00:00Z");
  JarvisHostStub stub;
  StubCalls calls;
  ChainCursor cursor;

  /** A stub on {@code stubClock} with {@link StubWorld#SESSION} and the agent's pending Request. */
  void pendingRequest(Clock stubClock) {
    stub =
        JarvisHostStub.builder().clock(stubClock).ids(StubWorld.counting("host")).build().start();
    stub.givenWorker(SampleRecords.worker(HUMAN_WORKER, "human"))
        .givenWorker(SampleRecords.worker(AGENT_WORKER, "agent"))
        .givenActor(SampleRecords.actor(HUMAN, HUMAN_WORKER, "human", StubWorld.NOW))
        .givenActor(SampleRecords.actor(AGENT, AGENT_WORKER, "agent", StubWorld.NOW));
    calls = new StubCalls(stub.baseUrl(), stubClock);
    cursor =
        accepted(
            "createWorkSession",
            null,
            HUMAN,
            ChainCursor.GENESIS,
            SampleRecords.workSession(SESSION, HUMAN, HUMAN_WORKER, AGENT_WORKER, StubWorld.NOW));
    ProtocolRecords agent = new ProtocolRecords(stubClock, StubWorld.counting("id"), AGENT);
    PolicyDecision decision =
        agent
            .policyDecision(
                SESSION,
                SampleRecords.POLICY_ID,
                ProtocolRecords.action("fetch_external_source", "source:docs", "scope:docs"),
                RiskClass.MEDIUM,
                PolicyDecisionResult.REVIEW_REQUIRED,
                "Needs review.")
            .requestId(REQUEST);
    cursor = accepted("recordPolicyDecision", SESSION, AGENT, cursor, tree(decision));
    cursor =
        accepted(
            "createRequest",
            SESSION,
            AGENT,
            cursor,
            tree(agent.request(decision, AGENT_WORKER, HUMAN_WORKER, Duration.ofHours(1))));
  }

  @AfterEach
  void stop() {
    if (stub != null) {
      assertEquals(List.of(), stub.receivedViolations());
      stub.close();
    }
  }

  @Test
  void anApprovalIsARealReviewByTheHumanActorThroughTheStubsEngine() {
    pendingRequest(clock);
    Review review = stub.human(HUMAN).approve(SESSION, REQUEST);

    assertEquals(ReviewDecision.APPROVE, review.getDecision());
    assertEquals(HUMAN, review.getReviewerActorId());
    assertEquals(REQUEST, review.getApprovalScope().getRequestId());
    assertEquals(1L, review.getApprovalScope().getMaxUses());
    ObjectNode last = lastEvent();
    assertEquals("review.recorded", last.path("type").asText());
    assertEquals(HUMAN, last.path("actor_id").asText());
    assertEquals(review.getId(), last.path("payload").path("object_id").asText());
    assertEquals("approved", requestOverHttp().path("status").asText());
    assertEquals(review.getId(), requestOverHttp().path("resolved_by_review_id").asText());
  }

  @Test
  void anApprovalTakesTheScopeTheTestMakesOfTheNarrowestOne() {
    pendingRequest(clock);
    Review review = stub.human(HUMAN).approve(SESSION, REQUEST, scope -> scope.maxUses(3L));
    assertEquals(3L, review.getApprovalScope().getMaxUses());
  }

  @Test
  void aNarrowingApprovesLessAndTheRequestReadsNarrowed() {
    pendingRequest(clock);
    Review review =
        stub.human(HUMAN)
            .narrow(
                SESSION,
                REQUEST,
                scope -> scope.allowedScope(new ApprovalBoundary().scopeRef("scope:docs-page-1")));
    assertEquals(ReviewDecision.NARROW, review.getDecision());
    assertEquals("narrowed", requestOverHttp().path("status").asText());
  }

  @Test
  void aDenialLeavesTheRequestDeniedWithoutAnApprovalScope() {
    pendingRequest(clock);
    Review review = stub.human(HUMAN).deny(SESSION, REQUEST);
    assertEquals(null, review.getApprovalScope());
    assertEquals("denied", requestOverHttp().path("status").asText());
  }

  @Test
  void letExpireMovesTheStubsClockToTheExpiryAndTheHostWritesItAtOnce() {
    pendingRequest(clock);
    Request expired = stub.human(HUMAN).letExpire(SESSION, REQUEST);

    assertEquals(RequestStatus.EXPIRED, expired.getStatus());
    assertEquals(expired.getExpiresAt().toInstant(), clock.instant());
    ObjectNode last = lastEvent();
    assertEquals("request.expired", last.path("type").asText());
    assertEquals(last.path("id").asText(), expired.getClosedByEventRef());
  }

  @Test
  void letExpireNeedsAStubThatRunsOnAStubClock() {
    pendingRequest(StubWorld.CLOCK);
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class, () -> stub.human(HUMAN).letExpire(SESSION, REQUEST));
    assertTrue(e.getMessage().contains("StubClock"), e.getMessage());
  }

  @Test
  void whatTheHostRefusesARealHumanIsRefusedHereToo() {
    pendingRequest(clock);
    stub.human(HUMAN).letExpire(SESSION, REQUEST);
    IllegalStateException late =
        assertThrows(
            IllegalStateException.class, () -> stub.human(HUMAN).approve(SESSION, REQUEST));
    assertTrue(late.getMessage().contains("invalid_request_transition"), late.getMessage());
    IllegalStateException agent =
        assertThrows(
            IllegalStateException.class,
            () -> stub.human(AGENT).decide(SESSION, REQUEST, ReviewDecision.ANSWER));
    assertTrue(agent.getMessage().contains("unauthorized_actor"), agent.getMessage());
  }

  @Test
  void anAgentsLongPollOnTheStubIsAnsweredByTheHumansApproval() throws Exception {
    pendingRequest(clock);
    java.util.concurrent.CompletableFuture<HttpResponse<byte[]>> poll =
        HttpClient.newHttpClient()
            .sendAsync(
                eventsRequest("?after=3&wait=30").build(), HttpResponse.BodyHandlers.ofByteArray());
    Review review = stub.human(HUMAN).approve(SESSION, REQUEST);
    HttpResponse<byte[]> page = poll.get(10, java.util.concurrent.TimeUnit.SECONDS);
    assertEquals(200, page.statusCode(), new String(page.body()));
    JsonNode event = JarvisJson.mapper().readTree(page.body()).path("events").path(0);
    assertEquals("review.recorded", event.path("type").asText());
    assertEquals(review.getId(), event.path("payload").path("object_id").asText());
  }

  @Test
  void aStreamFromTheStubIsOneBatchOfFramesThatTheClientResumesAfter() throws Exception {
    pendingRequest(clock);
    HttpResponse<String> batch =
        HttpClient.newHttpClient()
            .send(
                eventsRequest("")
                    .header("Accept", dev.jarvis.core.eventlog.EventStream.MEDIA_TYPE)
                    .header(dev.jarvis.core.eventlog.EventStream.LAST_EVENT_ID, "1")
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertEquals(200, batch.statusCode(), batch.body());
    assertEquals(
        dev.jarvis.core.eventlog.EventStream.MEDIA_TYPE,
        batch.headers().firstValue("Content-Type").orElseThrow());
    assertTrue(batch.body().startsWith("id: 2\ndata: {"), batch.body());
    assertTrue(batch.body().contains("\nid: 3\ndata: {"), batch.body());
    assertTrue(batch.body().endsWith(": end batch\n\n"), batch.body());
  }

  private HttpRequest.Builder eventsRequest(String query) {
    return HttpRequest.newBuilder(
            URI.create(stub.baseUrl() + "/work-sessions/" + SESSION + "/events" + query))
        .header(JarvisHeaders.PROTOCOL_VERSION, "v0.1")
        .header(JarvisHeaders.ACTOR_ID, AGENT)
        .GET();
  }

  // ---- helpers ----

  private ChainCursor accepted(
      String operationId, String pathId, String actor, ChainCursor at, JsonNode body) {
    StubCalls.Answer answer = calls.call(operationId, pathId, actor, at, body);
    if (answer.status() / 100 != 2) {
      throw new AssertionError(operationId + " refused: " + answer.body());
    }
    return new ChainCursor(
        Long.parseLong(answer.header(JarvisHeaders.WORK_SESSION_REVISION)),
        answer.header(JarvisHeaders.LAST_EVENT_HASH));
  }

  private ObjectNode lastEvent() {
    List<ObjectNode> events = stub.events(SESSION);
    return events.get(events.size() - 1);
  }

  /** The Request as the stub serves it ({@code request-read}), as the agent would read it. */
  private JsonNode requestOverHttp() {
    try {
      HttpResponse<byte[]> answer =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(
                          URI.create(
                              stub.baseUrl()
                                  + "/work-sessions/"
                                  + SESSION
                                  + "/requests/"
                                  + REQUEST))
                      .header(JarvisHeaders.PROTOCOL_VERSION, "v0.1")
                      .header(JarvisHeaders.ACTOR_ID, AGENT)
                      .GET()
                      .build(),
                  HttpResponse.BodyHandlers.ofByteArray());
      assertEquals(200, answer.statusCode(), new String(answer.body()));
      return JarvisJson.mapper().readTree(answer.body());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static JsonNode tree(Object record) {
    return JarvisJson.mapper().valueToTree(record);
  }
}
