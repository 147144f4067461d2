package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.client.RequestResolution;
import dev.jarvis.client.Sleeper;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.core.requestread.RequestRead;
import dev.jarvis.host.HostWrittenEvent;
import dev.jarvis.host.ProtocolListener;
import dev.jarvis.model.PolicyActionRequest;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.Request;
import dev.jarvis.model.Review;
import dev.jarvis.model.RiskClass;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The loop between agent and human on the reference host over HTTP (Undertow, loopback): an agent
 * awaiting its Request sees the human's approval, and a Request nobody answers is written expired
 * by the host's own sweep, with no request touching its WorkSession. Nothing sleeps: the client's
 * waits move the host's clock, and the sweep's event is awaited on a latch.
 */
class AwaitAndExpiryOverHttpTest {

  private final AtomicInteger ids = new AtomicInteger();

  private JarvisClient client(TestHost t, Sleeper sleeper) {
    return JarvisClient.create(
        JarvisClientOptions.builder()
            .baseUri(t.host.baseUri())
            .hostAuth("Bearer " + TestHost.TOKEN)
            .actorId(Payloads.AGENT)
            .clock(t.clock)
            .sleeper(sleeper)
            .idempotencyKeys(() -> "await-" + ids.incrementAndGet())
            .build());
  }

  /** The agent's review_required decision and its Request, open for {@code expiresIn}. */
  private static Request pendingRequest(JarvisClient agent, String ws, Duration expiresIn) {
    PolicyActionRequest fetch =
        ProtocolRecords.action(
            "fetch_external_source", "source:vendor-docs", "scope:source-collection");
    PolicyDecision decision =
        agent.recordPolicyDecision(
            ws,
            agent
                .records()
                .policyDecision(
                    ws,
                    Payloads.POLICY,
                    fetch,
                    RiskClass.MEDIUM,
                    PolicyDecisionResult.REVIEW_REQUIRED,
                    "Needs review.")
                .requestId(agent.records().newId("req")));
    return agent.createRequest(
        ws,
        agent.records().request(decision, Payloads.AGENT_WORKER, Payloads.HUMAN_WORKER, expiresIn));
  }

  private static String workSession(JarvisClient agent) {
    JarvisClient human = agent.as(Payloads.HUMAN);
    return human
        .createWorkSession(
            human
                .records()
                .workSession(
                    "Answer with reviewed sources.",
                    Payloads.HUMAN_WORKER,
                    Payloads.AGENT_WORKER,
                    Payloads.POLICY))
        .getId();
  }

  @Test
  void anAgentAwaitingOnTheReferenceHostSeesTheHumansApprovalSentFromAnotherClient()
      throws Exception {
    try (TestHost t = TestHost.started();
        JarvisClient agent = client(t, Sleeper.SYSTEM);
        JarvisClient humans = client(t, Sleeper.SYSTEM)) {
      JarvisClient human = humans.as(Payloads.HUMAN);
      String ws = workSession(agent);
      Request request = pendingRequest(agent, ws, Duration.ofHours(1));
      // The agent waits on the host's event stream; the human answers from a client of its own.
      CompletableFuture<RequestResolution> awaiting =
          agent.awaitResolutionAsync(ws, request.getId(), Duration.ofMinutes(5));
      Review review =
          human.recordReview(
              ws,
              human
                  .records()
                  .approval(
                      request,
                      Payloads.HUMAN_WORKER,
                      human.currentCursor(ws),
                      Duration.ofMinutes(20)));

      RequestResolution answer = awaiting.get(20, TimeUnit.SECONDS);
      assertEquals(RequestResolution.Outcome.APPROVED, answer.outcome());
      assertEquals(review.getApprovalScope(), answer.approval().orElseThrow());
    }
  }

  @Test
  void anAwaitOnTheReferenceHostEndsExpiredWhenTheSweepExpiresItsRequest() throws Exception {
    try (TestHost t = TestHost.started();
        JarvisClient agent = client(t, Sleeper.SYSTEM)) {
      String ws = workSession(agent);
      Request request = pendingRequest(agent, ws, Duration.ofMinutes(10));
      CompletableFuture<RequestResolution> awaiting =
          agent.awaitResolutionAsync(ws, request.getId(), Duration.ofHours(2));
      t.clock.advance(Duration.ofMinutes(10));
      // Nobody touches the WorkSession: the host's sweep writes the expiry, the stream carries it.
      RequestResolution answer = awaiting.get(20, TimeUnit.SECONDS);
      assertEquals(RequestResolution.Outcome.EXPIRED, answer.outcome());
      assertTrue(answer.approval().isEmpty());
    }
  }

  @Test
  void aRequestNobodyAnswersIsWrittenExpiredByTheHostsSweepWithNoRequestTouchingIt()
      throws InterruptedException {
    CountDownLatch expired = new CountDownLatch(1);
    ProtocolListener listener =
        new ProtocolListener() {
          @Override
          public void hostWrote(HostWrittenEvent written) {
            expired.countDown();
          }
        };
    try (TestHost t = TestHost.started(b -> b.listener(listener));
        JarvisClient agent = client(t, Sleeper.SYSTEM)) {
      assertTrue(t.host.host().serves(RequestRead.GET_REQUEST), "Undertow declares request-read");
      String ws = workSession(agent);
      Request request = pendingRequest(agent, ws, Duration.ofMinutes(10));
      t.clock.advance(Duration.ofMinutes(10));

      // The reference host sweeps every second on a thread of its own: wait for its event.
      assertTrue(expired.await(20, TimeUnit.SECONDS), "the sweep wrote the expiry");
      assertEquals(
          "expired",
          agent.getRequest(ws, request.getId()).getStatus().getValue(),
          "the Request as the host holds it");
      assertEquals(
          RequestResolution.Outcome.EXPIRED,
          agent.awaitResolution(ws, request.getId(), Duration.ZERO).outcome());
    }
  }
}
