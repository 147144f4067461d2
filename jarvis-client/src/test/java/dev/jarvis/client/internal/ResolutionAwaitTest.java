package dev.jarvis.client.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.client.AwaitPolicy;
import dev.jarvis.client.JarvisInvalidResponseException;
import dev.jarvis.client.JarvisResponse;
import dev.jarvis.client.JarvisTransportException;
import dev.jarvis.client.RequestResolution;
import dev.jarvis.client.RequestResolution.Outcome;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.eventlog.EventPage;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.Request;
import dev.jarvis.model.RequestStatus;
import dev.jarvis.model.Review;
import dev.jarvis.model.ReviewDecision;
import dev.jarvis.model.RiskClass;
import dev.jarvis.samples.SampleRecords;
import dev.jarvis.testkit.StubClock;
import java.net.http.HttpHeaders;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The await's rules against a host that answers what the test scripts, for what a correct host
 * never does: a chain that breaks, a resolution the chain does not record, a Review that does not
 * say what the Request says. Each fails the await closed, as an off-spec answer; none reads as an
 * outcome, let alone an approval.
 */
class ResolutionAwaitTest {

  static final String WS = "ws-1";
  final StubClock clock = StubClock.at("2026-06-12T18:00:00Z");
  final ProtocolRecords records = new ProtocolRecords(clock, () -> "1", "actor-agent-1");
  final Deque<CompletableFuture<JarvisResponse<Request>>> requestReads = new ArrayDeque<>();
  final List<JsonNode> chain = new ArrayList<>();
  final AtomicInteger waits = new AtomicInteger();
  Review review;

  Request pending() {
    return records.request(
        records
            .policyDecision(
                WS,
                SampleRecords.POLICY_ID,
                ProtocolRecords.action("fetch_external_source", "source:docs", "scope:docs"),
                RiskClass.MEDIUM,
                PolicyDecisionResult.REVIEW_REQUIRED,
                "Needs review.")
            .requestId("req-1"),
        "worker-agent-1",
        "worker-human-1",
        Duration.ofHours(1));
  }

  Request approvedBy(String reviewId) {
    return pending()
        .status(RequestStatus.APPROVED)
        .resolvedAt(OffsetDateTime.now(clock))
        .resolvedByReviewId(reviewId);
  }

  /** Appends a host event about {@code objectType}:{@code objectId} to the scripted chain. */
  void event(String type, String objectType, String objectId) {
    ObjectNode draft =
        SampleRecords.eventDraft(
            WS + ".event." + (chain.size() + 1), WS, "host-admin", type, "2026-06-12T18:00:00Z");
    ((ObjectNode) draft.path("payload")).put("object_type", objectType).put("object_id", objectId);
    ChainCursor at =
        chain.isEmpty()
            ? ChainCursor.GENESIS
            : new ChainCursor(
                chain.size(), chain.get(chain.size() - 1).path("event_hash").asText());
    chain.add(EventChain.next(at, draft));
  }

  void answers(Request request) {
    requestReads.add(CompletableFuture.completedFuture(answer(request)));
  }

  static JarvisResponse<Request> answer(Request request) {
    return new JarvisResponse<>(
        200,
        HttpHeaders.of(
            Map.of(JarvisHeaders.HOST_CAPABILITIES, List.of("cursor-headers, event-log")),
            (name, value) -> true),
        request,
        1);
  }

  CompletableFuture<RequestResolution> await() {
    return ResolutionAwait.start(
        WS,
        "req-1",
        Duration.ofMinutes(5),
        AwaitPolicy.DEFAULT,
        clock,
        wait -> {
          waits.incrementAndGet();
          clock.advance(wait);
          return CompletableFuture.completedFuture(null);
        },
        new ResolutionAwait.Reads() {
          @Override
          public CompletableFuture<JarvisResponse<Request>> request() {
            CompletableFuture<JarvisResponse<Request>> next = requestReads.poll();
            return next != null ? next : CompletableFuture.completedFuture(answer(pending()));
          }

          @Override
          public CompletableFuture<Review> review(String reviewId) {
            return CompletableFuture.completedFuture(review);
          }

          @Override
          public CompletableFuture<EventPage> page(EventLog.PageRequest page) {
            List<JsonNode> after =
                chain.subList((int) Math.min(page.after(), chain.size()), chain.size());
            return CompletableFuture.completedFuture(new EventPage(WS, List.copyOf(after), false));
          }
        });
  }

  static Throwable failure(CompletableFuture<RequestResolution> awaited) {
    return assertThrows(CompletionException.class, awaited::join).getCause();
  }

  @Test
  void aResolutionTheVerifiedChainDoesNotRecordIsNotBelieved() {
    event("work_session.created", "work_session", WS);
    event("request.created", "request", "req-1");
    answers(approvedBy("rev-1"));
    review =
        records
            .approval(
                pending(), "worker-human-1", new ChainCursor(2, "sha256:x"), Duration.ofHours(1))
            .id("rev-1");
    review.getApprovalScope().reviewId("rev-1");

    JarvisInvalidResponseException off =
        assertInstanceOf(JarvisInvalidResponseException.class, failure(await()));
    assertTrue(
        off.getMessage().contains("no event of the verified chain records it"), off.getMessage());
  }

  @Test
  void theSameResolutionRecordedInTheChainIsAnApproval() {
    event("work_session.created", "work_session", WS);
    event("request.created", "request", "req-1");
    event("review.recorded", "review", "rev-1");
    answers(approvedBy("rev-1"));
    review =
        records
            .approval(
                pending(), "worker-human-1", new ChainCursor(2, "sha256:x"), Duration.ofHours(1))
            .id("rev-1");
    review.getApprovalScope().reviewId("rev-1");

    RequestResolution answer = await().join();
    assertEquals(Outcome.APPROVED, answer.outcome());
    assertEquals(review.getApprovalScope(), answer.approval().orElseThrow());
  }

  @Test
  void aReviewThatDoesNotDecideWhatTheRequestSaysIsNotBelieved() {
    event("work_session.created", "work_session", WS);
    event("review.recorded", "review", "rev-1");
    answers(approvedBy("rev-1"));
    review = records.review(pending(), "worker-human-1", ReviewDecision.DENY).id("rev-1");

    JarvisInvalidResponseException off =
        assertInstanceOf(JarvisInvalidResponseException.class, failure(await()));
    assertEquals("/decision", off.field());
  }

  @Test
  void aChainThatBreaksFailsTheAwaitAsAnOffSpecAnswer() {
    event("work_session.created", "work_session", WS);
    event("request.created", "request", "req-1");
    ((ObjectNode) chain.get(1)).put("previous_hash", "sha256:" + "0".repeat(64));
    answers(pending());

    JarvisInvalidResponseException off =
        assertInstanceOf(JarvisInvalidResponseException.class, failure(await()));
    assertTrue(off.field().startsWith("/events/1"), off.field());
  }

  @Test
  void aHostUnreachableForLessThanHostLostAfterIsWaitedOut() {
    event("work_session.created", "work_session", WS);
    event("request.created", "request", "req-1");
    event("request.expired", "request", "req-1");
    requestReads.add(CompletableFuture.failedFuture(new JarvisTransportException("refused")));
    answers(
        pending()
            .status(RequestStatus.EXPIRED)
            .resolvedAt(OffsetDateTime.now(clock))
            .closedByEventRef(WS + ".event.3"));

    RequestResolution answer = await().join();
    assertEquals(Outcome.EXPIRED, answer.outcome());
    assertEquals(1, waits.get(), "one wait after the failed read");
  }
}
