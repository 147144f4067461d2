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
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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
  void anAgentAwaitingOnTheReferenceHostSeesTheHumansApprovalSentFromAnotherClient() {
    try (TestHost t = TestHost.started()) {
      AtomicBoolean answered = new AtomicBoolean();
      JarvisClient[] human = new JarvisClient[1];
      String[] ws = new String[1];
      Request[] request = new Request[1];
      Review[] review = new Review[1];
      // The human answers during the agent's first wait, from a client of its own.
      Sleeper sleeper =
          new Sleeper() {
            @Override
            public void sleep(Duration duration) {
              t.clock.advance(duration);
            }

            @Override
            public CompletableFuture<Void> delay(Duration duration, Executor executor) {
              return CompletableFuture.runAsync(
                  () -> {
                    if (answered.compareAndSet(false, true)) {
                      review[0] =
                          human[0].recordReview(
                              ws[0],
                              human[0]
                                  .records()
                                  .approval(
                                      request[0],
                                      Payloads.HUMAN_WORKER,
                                      human[0].currentCursor(ws[0]),
                                      Duration.ofMinutes(20)));
                    }
                    t.clock.advance(duration);
                  },
                  executor);
            }
          };
      try (JarvisClient agent = client(t, sleeper);
          JarvisClient humans = client(t, Sleeper.SYSTEM)) {
        human[0] = humans.as(Payloads.HUMAN);
        ws[0] = workSession(agent);
        request[0] = pendingRequest(agent, ws[0], Duration.ofHours(1));

        RequestResolution answer =
            agent.awaitResolution(ws[0], request[0].getId(), Duration.ofMinutes(5));

        assertTrue(answered.get());
        assertEquals(RequestResolution.Outcome.APPROVED, answer.outcome());
        assertEquals(review[0].getApprovalScope(), answer.approval().orElseThrow());
      }
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
