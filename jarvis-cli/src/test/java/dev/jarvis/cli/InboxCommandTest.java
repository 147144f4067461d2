package dev.jarvis.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.cli.demo.AgentWalkthrough;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.host.reference.ReferenceHost;
import dev.jarvis.host.reference.ReferenceHostConfig;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.PolicyActionRequest;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.Request;
import dev.jarvis.model.RiskClass;
import dev.jarvis.model.WorkerType;
import dev.jarvis.samples.SampleRecords;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/**
 * {@code inbox} against the reference host on loopback (Undertow, which declares {@code
 * request-inbox}): the human's pending Requests across WorkSessions as JSON lines, another human's
 * inbox without them, an agent refused, a status the spec does not have a usage error, and {@code
 * --wait} printing the Request that comes while it waits.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class InboxCommandTest {

  private static final String TOKEN = "t0k3n-inbox";
  private static final AgentWalkthrough.Cast CAST = AgentWalkthrough.Cast.reference();
  private static final String OUTSIDER_WORKER = "worker-human-outsider";
  private static final String OUTSIDER_ACTOR = "actor-human-outsider";
  private static final AtomicInteger IDS = new AtomicInteger();

  private static ReferenceHost host;
  private static JarvisClient human;
  private static JarvisClient agent;

  @BeforeAll
  static void startTheHostAndRegisterTheCast() {
    host =
        ReferenceHost.start(ReferenceHostConfig.demo(TOKEN).policy(SampleRecords.policy()).build());
    human =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(host.baseUri().toString())
                .hostAuth("Bearer " + TOKEN)
                .actorId(CAST.humanActor())
                .idempotencyKeys(() -> "inbox-test-" + IDS.incrementAndGet())
                .build());
    agent = human.as(CAST.agentActor());
    JarvisClient admin = human.as(CAST.adminActor());
    ProtocolRecords byAdmin = admin.records();
    admin.registerWorker(byAdmin.worker(CAST.humanWorker(), WorkerType.HUMAN, "reviewer"));
    admin.registerWorker(byAdmin.worker(CAST.agentWorker(), WorkerType.AGENT, "assistant"));
    admin.registerWorker(byAdmin.worker(OUTSIDER_WORKER, WorkerType.HUMAN, "someone else"));
    admin.registerActor(byAdmin.actor(CAST.humanActor(), CAST.humanWorker(), ActorType.HUMAN));
    admin.registerActor(byAdmin.actor(CAST.agentActor(), CAST.agentWorker(), ActorType.AGENT));
    admin.registerActor(byAdmin.actor(OUTSIDER_ACTOR, OUTSIDER_WORKER, ActorType.HUMAN));
  }

  @AfterAll
  static void stop() {
    human.close();
    host.close();
  }

  /** A WorkSession of the cast's human and agent, and the agent's pending Request in it. */
  private static Request asked() {
    String ws =
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
                    CAST.policyId(),
                    fetch,
                    RiskClass.MEDIUM,
                    PolicyDecisionResult.REVIEW_REQUIRED,
                    "Needs review.")
                .requestId(agent.records().newId("req")));
    return agent.createRequest(
        ws,
        agent
            .records()
            .request(decision, CAST.agentWorker(), CAST.humanWorker(), Duration.ofHours(1)));
  }

  private record Run(int code, String out, String err) {
    List<String> ids() throws Exception {
      List<String> ids = new ArrayList<>();
      for (String line : out.lines().toList()) {
        JsonNode request = JarvisJson.mapper().readTree(line);
        ids.add(request.path("id").asText());
      }
      return ids;
    }
  }

  private static Run inbox(String actor, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "inbox",
                "--base-url",
                host.baseUri().toString(),
                "--token",
                TOKEN,
                "--actor",
                actor));
    args.addAll(List.of(more));
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    int code =
        new JarvisCli()
            .run(
                args.toArray(String[]::new),
                new ByteArrayInputStream(new byte[0]),
                new PrintStream(o, true, StandardCharsets.UTF_8),
                new PrintStream(e, true, StandardCharsets.UTF_8));
    Run run = new Run(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    assertFalse(run.out().contains(TOKEN) || run.err().contains(TOKEN), "no token printed");
    return run;
  }

  @Test
  void the_human_gets_its_pending_requests_as_json_lines_and_another_human_none_of_them()
      throws Exception {
    Request first = asked();
    Request second = asked();
    Run mine = inbox(CAST.humanActor());
    assertEquals(0, mine.code(), mine.err());
    List<String> ids = mine.ids();
    assertTrue(
        ids.indexOf(first.getId()) >= 0 && ids.indexOf(first.getId()) < ids.indexOf(second.getId()),
        ids.toString());
    Run theirs = inbox(OUTSIDER_ACTOR, "--status", "pending,acknowledged");
    assertEquals(0, theirs.code(), theirs.err());
    assertEquals("", theirs.out());
  }

  @Test
  void an_agent_is_refused_and_a_status_the_spec_does_not_have_is_a_usage_error() {
    Run refused = inbox(CAST.agentActor());
    assertEquals(1, refused.code());
    assertTrue(refused.err().contains("unauthorized_actor"), refused.err());
    Run usage = inbox(CAST.humanActor(), "--status", "open");
    assertEquals(2, usage.code());
    assertTrue(usage.err().contains("--status"), usage.err());
  }

  @Test
  void wait_prints_the_request_that_comes_while_it_waits() throws Exception {
    asked();
    Run before = inbox(CAST.humanActor());
    long cursor =
        human
            .inbox(dev.jarvis.core.requestinbox.RequestInbox.Query.pending().withLimit(1000))
            .nextAfter();
    CompletableFuture<Run> waiting =
        CompletableFuture.supplyAsync(
            () -> inbox(CAST.humanActor(), "--after", Long.toString(cursor), "--wait", "25s"));
    Request next = asked();
    Run run = waiting.get(30, TimeUnit.SECONDS);
    assertEquals(0, run.code(), run.err());
    assertEquals(List.of(next.getId()), run.ids());
    assertFalse(before.ids().contains(next.getId()));
  }
}
