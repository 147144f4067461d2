package dev.jarvis.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.cli.demo.AgentWalkthrough;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.client.RequestResolution;
import dev.jarvis.client.governed.GovernedAction;
import dev.jarvis.client.governed.GovernedOptions;
import dev.jarvis.client.governed.GovernedOutcome;
import dev.jarvis.client.governed.Permit;
import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.host.reference.ReferenceHost;
import dev.jarvis.host.reference.ReferenceHostConfig;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.Request;
import dev.jarvis.model.RiskClass;
import dev.jarvis.model.WorkerType;
import dev.jarvis.samples.SampleRecords;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Governed actions over HTTP against the reference host on loopback (Undertow: {@code
 * event-stream}, {@code event-log}, {@code request-read}), the human answering with {@code
 * jarvis-cli review} while the agent waits: the Done-when of issue #34 for a reviewed tool.
 */
class GovernedActionOverHttpTest {

  private static final String TOKEN = "t0k3n-governed";
  private static final AgentWalkthrough.Cast CAST = AgentWalkthrough.Cast.reference();
  private static final AtomicInteger IDS = new AtomicInteger();

  /** The Request id of the agent's createRequest, once the host has answered it. */
  private static final AtomicReference<CompletableFuture<String>> ASKED =
      new AtomicReference<>(new CompletableFuture<>());

  private static ReferenceHost host;
  private static JarvisClient agent;
  private static ExecutorService agentThread;

  private final AtomicInteger ran = new AtomicInteger();
  private String ws;

  @BeforeAll
  static void startTheHostAndRegisterTheCast() {
    host =
        ReferenceHost.start(ReferenceHostConfig.demo(TOKEN).policy(SampleRecords.policy()).build());
    agent =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(host.baseUri().toString())
                .hostAuth("Bearer " + TOKEN)
                .actorId(CAST.agentActor())
                .idempotencyKeys(() -> "governed-http-" + IDS.incrementAndGet())
                .addPerCallPolicy(
                    JarvisPolicy.named(
                        "asked",
                        (request, next) ->
                            next.send(request)
                                .thenApply(
                                    answer -> {
                                      // Once the host answered: the human's review reads it.
                                      if (request
                                          .operation()
                                          .operationId()
                                          .equals("createRequest")) {
                                        ASKED
                                            .get()
                                            .complete(
                                                request
                                                    .body()
                                                    .orElseThrow()
                                                    .path(Request.JSON_PROPERTY_ID)
                                                    .asText());
                                      }
                                      return answer;
                                    })))
                .build());
    JarvisClient admin = agent.as(CAST.adminActor());
    ProtocolRecords byAdmin = admin.records();
    admin.registerWorker(byAdmin.worker(CAST.humanWorker(), WorkerType.HUMAN, "reviewer"));
    admin.registerWorker(byAdmin.worker(CAST.agentWorker(), WorkerType.AGENT, "assistant"));
    admin.registerActor(byAdmin.actor(CAST.humanActor(), CAST.humanWorker(), ActorType.HUMAN));
    admin.registerActor(byAdmin.actor(CAST.agentActor(), CAST.agentWorker(), ActorType.AGENT));
    agentThread = Executors.newSingleThreadExecutor();
  }

  @AfterAll
  static void stop() {
    agentThread.shutdownNow();
    agent.close();
    host.close();
  }

  @BeforeEach
  void aWorkSessionOfTheCast() {
    ASKED.set(new CompletableFuture<>());
    JarvisClient human = agent.as(CAST.humanActor());
    ws =
        human
            .createWorkSession(
                human
                    .records()
                    .workSession(
                        "Answer with reviewed sources.",
                        CAST.humanWorker(),
                        CAST.agentWorker(),
                        CAST.policyId()))
            .getId();
  }

  private GovernedAction fetch(String key) {
    return agent
        .governed(ws, GovernedOptions.builder().reviewWait(Duration.ofMinutes(2)).build())
        .action("fetch_external_source")
        .target("source:vendor-docs")
        .scope("scope:source-collection")
        .risk(RiskClass.MEDIUM)
        .key(key)
        .build();
  }

  private String work(Permit permit) {
    ran.incrementAndGet();
    return "fetched " + permit.action().getTargetRef();
  }

  /** Runs the action on the agent's thread, as an agent loop would. */
  private CompletableFuture<GovernedOutcome<String>> runInTheBackground(GovernedAction action) {
    return CompletableFuture.supplyAsync(() -> action.run(this::work), agentThread);
  }

  /** {@code jarvis-cli review REQUEST --work-session WS} as the human, with {@code decision}. */
  private void humanReviews(String requestId, String... decision) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "review",
                "--base-url",
                host.baseUri().toString(),
                "--token",
                TOKEN,
                "--actor",
                CAST.humanActor(),
                "--work-session",
                ws,
                requestId));
    args.addAll(List.of(decision));
    int code =
        new JarvisCli()
            .run(
                args.toArray(String[]::new),
                new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(0, code, out.toString(StandardCharsets.UTF_8) + err);
  }

  private static <T> T within(CompletableFuture<T> future) throws Exception {
    return future.get(60, TimeUnit.SECONDS);
  }

  @Test
  void aReviewedToolWaitsForTheHumansCliReviewAndRunsOnceWithinTheApproval() throws Exception {
    CompletableFuture<GovernedOutcome<String>> running = runInTheBackground(fetch("call-1"));
    String requestId = within(ASKED.get());
    assertEquals(0, ran.get(), "nothing runs before the human answers");

    humanReviews(requestId, "--approve", "--max-uses", "1", "--expires-in", "20m");

    GovernedOutcome<String> outcome = within(running);
    GovernedOutcome.Done<?> done = assertInstanceOf(GovernedOutcome.Done.class, outcome);
    assertEquals("fetched source:vendor-docs", done.result());
    assertEquals(1, ran.get());
    // A second run under the same key finds the action recorded and does not fetch again.
    GovernedOutcome<String> again = fetch("call-1").run(this::work);
    assertInstanceOf(GovernedOutcome.AlreadyRecorded.class, again);
    assertEquals(1, ran.get());
  }

  @Test
  void aToolTheHumanDeniesFromTheCliNeverRunsAndTheModelIsToldWhy() throws Exception {
    CompletableFuture<GovernedOutcome<String>> running = runInTheBackground(fetch("call-2"));
    humanReviews(within(ASKED.get()), "--deny", "--reason", "Not this source.");

    GovernedOutcome<String> outcome = within(running);
    GovernedOutcome.NotApproved<?> notApproved =
        assertInstanceOf(GovernedOutcome.NotApproved.class, outcome);
    assertEquals(RequestResolution.Outcome.DENIED, notApproved.resolution().outcome());
    assertEquals(0, ran.get());
    assertTrue(outcome.forModel().contains("The human denied it."), outcome.forModel());
  }

  @Test
  void anAgentThatDoesNotKnowThePolicyIsHeldToTheStricterResultTheHostsRefusalNames() {
    GovernedOutcome<String> outcome =
        agent
            .governed(ws)
            .action("delete_repository")
            .target("repo:main")
            .risk(RiskClass.LOW)
            .build()
            .run(this::work);

    GovernedOutcome.Denied<?> denied = assertInstanceOf(GovernedOutcome.Denied.class, outcome);
    assertTrue(denied.reason().contains("(rule /denied_actions/0)"), denied.reason());
    assertEquals(0, ran.get());
    assertFalse(outcome.isDone());
  }
}
