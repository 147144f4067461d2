package dev.jarvis.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.client.RequestResolution.Outcome;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.eventlog.EventStream;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.Request;
import dev.jarvis.model.RequestStatus;
import dev.jarvis.model.Review;
import dev.jarvis.model.RiskClass;
import dev.jarvis.samples.SampleRecords;
import dev.jarvis.testkit.StubClock;
import java.io.IOException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code awaitResolution} on a host that declares {@code event-stream}: the await catches up by
 * pages, then waits on the WorkSession's stream, and reads the Request again the moment an event
 * arrives instead of at the next poll. Its waits are held ({@link HeldWaits}): time passes only
 * when the test says so, and the stream alone can wake the await.
 */
class AwaitOverStreamTest {

  static final String WS = "ws-stream-1";
  static final String BASE = "/work-sessions/" + WS;
  static final String ALL = "cursor-headers, event-log, event-stream, request-read";

  final StubClock clock = StubClock.at("2026-06-12T18:00:00Z");
  final HeldWaits waits = new HeldWaits(clock);
  final ProtocolRecords records = new ProtocolRecords(clock, () -> "1", "actor-agent-1");
  final List<JsonNode> chain = new ArrayList<>();
  final AtomicBoolean answered = new AtomicBoolean();
  final CountDownLatch streamAsked = new CountDownLatch(1);
  StreamHost host;
  JarvisClient client;
  Review review;

  @BeforeEach
  void host() throws IOException {
    event("work_session.created", "work_session", WS);
    event("request.created", "request", "req-1");
    event("review.recorded", "review", "rev-1");
    review =
        records
            .approval(
                pending(),
                "worker-human-1",
                new ChainCursor(2, chain.get(1).path("event_hash").asText()),
                Duration.ofHours(1))
            .id("rev-1");
    review.getApprovalScope().reviewId("rev-1");
    host = new StreamHost();
    host.on(
        BASE + "/requests/req-1",
        (answer, i) ->
            answer.json(200, ALL, json(answered.get() ? approvedBy("rev-1") : pending())));
    host.on(BASE + "/reviews/rev-1", (answer, i) -> answer.json(200, ALL, json(review)));
    client =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(host.baseUri())
                .actorId("actor-agent-1")
                .hostAuth("Bearer test")
                .clock(clock)
                .sleeper(waits)
                .build());
  }

  @AfterEach
  void close() {
    client.close();
    host.close();
  }

  /** The events: by page the first two, the stream after them the review's. */
  void serveEvents(boolean streamTheReview) {
    serveEvents(streamTheReview, chain.subList(2, 3));
  }

  /**
   * As {@link #serveEvents(boolean)}, the stream sending {@code streamed} for the review's event.
   */
  void serveEvents(boolean streamTheReview, List<JsonNode> streamed) {
    host.on(
        BASE + "/events",
        (answer, i) -> {
          if (answer.header("Accept").startsWith(EventStream.MEDIA_TYPE)) {
            streamAsked.countDown();
            StreamHost.Answer stream = answer.stream(ALL);
            if (streamTheReview) {
              answered.set(true); // the human answers while the agent waits
              stream.frames(streamed);
            }
            stream.holdOpen();
            return;
          }
          long after = Long.parseLong(answer.query().replaceAll(".*after=([0-9]+).*", "$1"));
          int visible = answered.get() ? 3 : 2;
          answer.json(
              200,
              ALL,
              StreamHost.page(WS, chain.subList((int) Math.min(after, visible), visible)));
        });
  }

  @Test
  void anAwaitOverAStreamCompletesWhenTheResolvingEventArrives() throws Exception {
    serveEvents(true);

    RequestResolution resolution =
        client
            .awaitResolutionAsync(WS, "req-1", Duration.ofHours(1))
            .orTimeout(20, TimeUnit.SECONDS)
            .join();

    assertEquals(Outcome.APPROVED, resolution.outcome());
    assertEquals(review.getApprovalScope(), resolution.approval().orElseThrow());
    assertEquals(
        java.time.Instant.parse("2026-06-12T18:00:00Z"),
        clock.instant(),
        "woken by the stream: the await's wait (held) never passed");
    assertTrue(
        host.clientGone.await(20, TimeUnit.SECONDS), "the await's end closes the subscription");
  }

  @Test
  void aTamperedEventOnTheStreamFailsTheAwaitClosed() throws Exception {
    ObjectNode tampered = chain.get(2).deepCopy();
    tampered.put("id", "changed-after-hashing");
    serveEvents(true, List.of(tampered));

    CompletableFuture<RequestResolution> awaiting =
        client.awaitResolutionAsync(WS, "req-1", Duration.ofHours(1));

    java.util.concurrent.CompletionException failed =
        org.junit.jupiter.api.Assertions.assertThrows(
            java.util.concurrent.CompletionException.class,
            () -> awaiting.orTimeout(20, TimeUnit.SECONDS).join());
    assertTrue(failed.getCause() instanceof JarvisInvalidResponseException, failed.toString());
    assertTrue(host.clientGone.await(20, TimeUnit.SECONDS), "the stream is closed");
  }

  @Test
  void anAwaitThatTimesOutWhileTheStreamIsQuietIsNotAnApproval() throws Exception {
    serveEvents(false);
    CompletableFuture<RequestResolution> awaiting =
        client.awaitResolutionAsync(WS, "req-1", Duration.ofMinutes(5));
    assertTrue(streamAsked.await(20, TimeUnit.SECONDS));

    waits.next().pass(); // the five minutes pass with nothing on the stream

    RequestResolution resolution = awaiting.orTimeout(20, TimeUnit.SECONDS).join();
    assertEquals(Outcome.TIMED_OUT, resolution.outcome());
    assertTrue(resolution.approval().isEmpty());
    assertTrue(host.clientGone.await(20, TimeUnit.SECONDS), "the stream is closed");
  }

  @Test
  void cancellingTheAwaitStopsTheSubscription() throws Exception {
    serveEvents(false);
    CompletableFuture<RequestResolution> awaiting =
        client.awaitResolutionAsync(WS, "req-1", Duration.ofMinutes(5));
    assertTrue(streamAsked.await(20, TimeUnit.SECONDS));

    awaiting.cancel(true);

    assertTrue(host.clientGone.await(20, TimeUnit.SECONDS), "the stream is closed");
  }

  // ---- records ----

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

  static String json(Object record) {
    return StreamHost.oneLine(JarvisJson.mapper().valueToTree(record));
  }
}
