package dev.jarvis.spring.ai;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.client.Sleeper;
import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.requestread.RequestRead;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.Policy;
import dev.jarvis.model.Request;
import dev.jarvis.samples.SampleRecords;
import dev.jarvis.testkit.JarvisHostStub;
import dev.jarvis.testkit.StubClock;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The stub host, a human who answers the agent's Requests, and the agent's client, for the
 * examples. Nothing sleeps: every wait of the client passes at once and moves the clock the stub
 * and the client share, so a wait that times out does so at once.
 */
final class StubHostAgent implements AutoCloseable {

  static final String HUMAN = "actor-human-1";
  static final String AGENT = "actor-agent-1";

  /** The WorkSession's Policy: summaries allowed, external fetches reviewed, deletion denied. */
  static final String POLICY =
      """
      {"id": "policy-agents-1", "owner_worker_id": "worker-human-1",
       "created_by_actor_id": "actor-human-1", "autonomy_level": "bounded_execute",
       "allowed_actions": [{"action": "summarize"}],
       "denied_actions": [{"action": "delete_repository"}],
       "review_required_actions": [{"action": "fetch_external_source"}],
       "risk_classes": ["low", "medium", "high"],
       "escalation_rules": [],
       "created_at": "2026-01-01T00:00:00Z", "tool_grants": []}
      """;

  final StubClock clock = StubClock.at("2026-06-12T18:00:00Z");
  final Policy policy;
  final JarvisHostStub stub;
  final JarvisClient agent;
  final String ws;
  private final AtomicReference<Consumer<String>> human = new AtomicReference<>(id -> {});

  StubHostAgent() {
    try {
      policy = JarvisJson.mapper().readValue(POLICY, Policy.class);
    } catch (java.io.IOException e) {
      throw new UncheckedIOException(e);
    }
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
    AtomicInteger keys = new AtomicInteger();
    agent =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(stub.baseUri())
                .hostAuth("Bearer test")
                .actorId(AGENT)
                .clock(clock)
                .sleeper(new ClockSleeper(clock))
                .idempotencyKeys(() -> "k" + keys.incrementAndGet())
                // The human at the desk: answers each Request the moment the agent opens it.
                .addPerCallPolicy(
                    JarvisPolicy.named(
                        "human-at-the-desk",
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
                    .workSession(
                        "Research.", "worker-human-1", "worker-agent-1", "policy-agents-1"))
            .getId();
  }

  /** The human approves every Request ({@code jarvis-cli review ... approve}). */
  void humanApproves() {
    human.set(id -> stub.human(HUMAN).approve(ws, id));
  }

  /** The human denies every Request. */
  void humanDenies() {
    human.set(id -> stub.human(HUMAN).deny(ws, id));
  }

  /** Every Request expires unanswered. */
  void requestsExpire() {
    human.set(id -> stub.human(HUMAN).letExpire(ws, id));
  }

  /** The types of the WorkSession's events after its creation, in order. */
  List<String> eventTypes() {
    return stub.events(ws).stream()
        .map(e -> e.path(JarvisEvent.JSON_PROPERTY_TYPE).asText())
        .filter(type -> !type.startsWith("work_session."))
        .toList();
  }

  /** The events of the WorkSession. */
  List<? extends JsonNode> events() {
    return stub.events(ws);
  }

  @Override
  public void close() {
    agent.close();
    stub.close();
  }

  /** Waits that pass at once, moving the shared clock by their length. */
  record ClockSleeper(StubClock clock) implements Sleeper {
    @Override
    public void sleep(Duration duration) {
      clock.advance(duration);
    }

    @Override
    public CompletableFuture<Void> delay(Duration duration, Executor executor) {
      return CompletableFuture.runAsync(() -> clock.advance(duration), executor);
    }
  }

  static Duration minutes(long n) {
    return Duration.ofMinutes(n);
  }
}
