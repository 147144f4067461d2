package dev.jarvis.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.cli.demo.AgentWalkthrough;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.host.reference.ReferenceHost;
import dev.jarvis.host.reference.ReferenceHostConfig;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.PolicyActionRequest;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.Request;
import dev.jarvis.model.RequestStatus;
import dev.jarvis.model.RiskClass;
import dev.jarvis.model.WorkerType;
import dev.jarvis.samples.SampleRecords;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Test;

/**
 * {@code review} against the reference host on loopback (Undertow, which declares {@code
 * request-read} and {@code event-log}): an agent's review_required decision and its Request, then a
 * human's answer from the command line, checked in what it prints and in the Request as the host
 * holds it afterwards.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class ReviewCommandTest {

  private static final String TOKEN = "t0k3n-review";
  private static final AgentWalkthrough.Cast CAST = AgentWalkthrough.Cast.reference();
  private static final String OUTSIDER_WORKER = "worker-human-outsider";
  private static final String OUTSIDER_ACTOR = "actor-human-outsider";
  private static final AtomicInteger IDS = new AtomicInteger();

  private static ReferenceHost host;
  private static JarvisClient client;
  private static JarvisClient agent;

  private String out;
  private String err;

  @BeforeAll
  static void startTheHostAndRegisterTheCast() {
    host =
        ReferenceHost.start(ReferenceHostConfig.demo(TOKEN).policy(SampleRecords.policy()).build());
    client =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(host.baseUri().toString())
                .hostAuth("Bearer " + TOKEN)
                .actorId(CAST.agentActor())
                .idempotencyKeys(() -> "review-test-" + IDS.incrementAndGet())
                .build());
    agent = client;
    JarvisClient admin = client.as(CAST.adminActor());
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
    client.close();
    host.close();
  }

  /** A WorkSession of the cast's human and agent. */
  private static String workSession() {
    return workSession(client);
  }

  /** A WorkSession of the cast's human and agent, created through {@code anyone}'s host. */
  static String workSession(JarvisClient anyone) {
    JarvisClient human = anyone.as(CAST.humanActor());
    return human
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

  /**
   * The agent's review_required decision to fetch an external source, and its pending Request; then
   * one more decision, so that the chain has moved on past the Request's own event.
   */
  private static Request pendingRequest(String ws) {
    return pendingRequest(agent, ws);
  }

  /** The same through {@code agent}, a client acting as the cast's agent. */
  static Request pendingRequest(JarvisClient agent, String ws) {
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
                    "External sources need a human's review.")
                .requestId(agent.records().newId("req")));
    Request request =
        agent.createRequest(
            ws,
            agent
                .records()
                .request(decision, CAST.agentWorker(), CAST.humanWorker(), Duration.ofHours(1)));
    agent.recordPolicyDecision(
        ws,
        agent
            .records()
            .policyDecision(
                ws,
                CAST.policyId(),
                ProtocolRecords.action("summarize", "doc:notes", "scope:source-collection"),
                RiskClass.LOW,
                PolicyDecisionResult.ALLOW,
                "Summaries are allowed."));
    return request;
  }

  private int run(String... args) {
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    int code =
        new JarvisCli()
            .run(
                args,
                new ByteArrayInputStream(new byte[0]),
                new PrintStream(o, true, StandardCharsets.UTF_8),
                new PrintStream(e, true, StandardCharsets.UTF_8));
    out = o.toString(StandardCharsets.UTF_8);
    err = e.toString(StandardCharsets.UTF_8);
    assertFalse(out.contains(TOKEN) || err.contains(TOKEN), "the token is never printed");
    return code;
  }

  /** {@code review REQUEST_ID --work-session WS} as {@code actor}, with {@code more}. */
  private int review(String actor, String ws, String requestId, String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "review",
                "--base-url",
                host.baseUri().toString(),
                "--token",
                TOKEN,
                "--actor",
                actor,
                "--work-session",
                ws,
                requestId));
    args.addAll(List.of(more));
    return run(args.toArray(String[]::new));
  }

  private JsonNode printedReview() throws Exception {
    assertEquals(1, out.lines().count(), out);
    return JarvisJson.mapper().readTree(out);
  }

  @Test
  void an_approval_with_one_use_for_twenty_minutes_is_recorded_with_a_scope_naming_the_request()
      throws Exception {
    String ws = workSession();
    Request request = pendingRequest(ws);
    ChainCursor now = client.currentCursor(ws);

    int code =
        review(
            CAST.humanActor(),
            ws,
            request.getId(),
            "--approve",
            "--max-uses",
            "1",
            "--expires-in",
            "20m",
            "--reason",
            "Fine once; cite the version you read.");

    assertEquals(0, code, out + err);
    assertEquals("", err);
    JsonNode review = printedReview();
    assertEquals("approve", review.path("decision").asText());
    assertEquals("request:" + request.getId(), review.path("target_ref").asText());
    assertEquals(CAST.humanActor(), review.path("reviewer_actor_id").asText());
    assertEquals(CAST.humanWorker(), review.path("reviewer_worker_id").asText());
    assertEquals("Fine once; cite the version you read.", review.path("comments").asText());
    JsonNode scope = review.path("approval_scope");
    assertEquals(request.getId(), scope.path("request_id").asText());
    assertEquals(review.path("id").asText(), scope.path("review_id").asText());
    assertEquals(1, scope.path("max_uses").asLong());
    assertEquals(CAST.agentActor(), scope.path("applies_to_actor_id").asText());
    OffsetDateTime expires = OffsetDateTime.parse(scope.path("expires_at").asText());
    OffsetDateTime created = OffsetDateTime.parse(review.path("created_at").asText());
    assertEquals(Duration.ofMinutes(20), Duration.between(created, expires));
    // Bound to the Request's own event, not to where the chain stands now.
    assertNotEquals(now.revision(), scope.path("request_revision").asLong());
    Request held = agent.getRequest(ws, request.getId());
    assertEquals(RequestStatus.APPROVED, held.getStatus());
    assertEquals(review.path("id").asText(), held.getResolvedByReviewId());
  }

  @Test
  void a_narrowing_with_three_uses_is_recorded_as_narrow_and_leaves_the_request_narrowed()
      throws Exception {
    String ws = workSession();
    Request request = pendingRequest(ws);

    int code =
        review(
            CAST.humanActor(),
            ws,
            request.getId(),
            "--narrow",
            "--max-uses",
            "3",
            "--expires-in",
            "PT2H");

    assertEquals(0, code, out + err);
    JsonNode review = printedReview();
    assertEquals("narrow", review.path("decision").asText());
    assertEquals(3, review.path("approval_scope").path("max_uses").asLong());
    assertEquals(RequestStatus.NARROWED, agent.getRequest(ws, request.getId()).getStatus());
  }

  @Test
  void a_denial_is_recorded_without_an_approval_scope_and_leaves_the_request_denied()
      throws Exception {
    String ws = workSession();
    Request request = pendingRequest(ws);

    int code = review(CAST.humanActor(), ws, request.getId(), "--deny", "--reason", "Not now.");

    assertEquals(0, code, out + err);
    JsonNode review = printedReview();
    assertEquals("deny", review.path("decision").asText());
    assertEquals("Not now.", review.path("comments").asText());
    assertTrue(review.path("approval_scope").isMissingNode(), out);
    assertEquals(RequestStatus.DENIED, agent.getRequest(ws, request.getId()).getStatus());
  }

  @Test
  void an_outsider_actor_is_refused_with_the_hosts_error_id_and_exit_one() {
    String ws = workSession();
    Request request = pendingRequest(ws);

    int code = review(OUTSIDER_ACTOR, ws, request.getId(), "--approve");

    assertEquals(1, code, out + err);
    assertEquals("", out);
    assertEquals(1, err.lines().count(), err);
    assertTrue(err.startsWith("jarvis-cli review: unauthorized_actor: "), err);
    assertEquals(RequestStatus.PENDING, agent.getRequest(ws, request.getId()).getStatus());
  }

  @Test
  void the_agent_itself_cannot_answer_its_own_request() {
    String ws = workSession();
    Request request = pendingRequest(ws);

    int code = review(CAST.agentActor(), ws, request.getId(), "--approve");

    assertEquals(1, code, out + err);
    assertTrue(err.startsWith("jarvis-cli review: unauthorized_actor: "), err);
    assertEquals(RequestStatus.PENDING, agent.getRequest(ws, request.getId()).getStatus());
  }

  @Test
  void an_unknown_request_id_is_refused_as_unknown_state_with_exit_one() {
    String ws = workSession();

    int code = review(CAST.humanActor(), ws, "req-no-such-request", "--deny");

    assertEquals(1, code, out + err);
    assertEquals("", out);
    assertTrue(err.startsWith("jarvis-cli review: unknown_state: "), err);
    assertTrue(err.contains("request_id"), err);
  }

  @Test
  void a_request_answered_already_is_refused_as_an_invalid_transition() {
    String ws = workSession();
    Request request = pendingRequest(ws);
    assertEquals(0, review(CAST.humanActor(), ws, request.getId(), "--deny"), err);

    int code = review(CAST.humanActor(), ws, request.getId(), "--approve");

    assertEquals(1, code, out + err);
    assertTrue(err.startsWith("jarvis-cli review: invalid_request_transition: "), err);
  }

  @Test
  void two_answers_at_once_are_a_usage_error_with_exit_two() {
    int code = review(CAST.humanActor(), "ws-any", "req-any", "--approve", "--deny");

    assertEquals(2, code, out + err);
    assertEquals("", out);
    assertEquals(1, err.lines().count(), err);
    assertTrue(err.contains("mutually exclusive"), err);
  }

  @Test
  void no_answer_at_all_is_a_usage_error_with_exit_two() {
    assertEquals(2, review(CAST.humanActor(), "ws-any", "req-any"));
    assertTrue(err.contains("--approve"), err);
  }

  @Test
  void a_missing_request_id_is_a_usage_error_with_exit_two() {
    int code =
        run(
            "review",
            "--base-url",
            host.baseUri().toString(),
            "--token",
            TOKEN,
            "--actor",
            CAST.humanActor(),
            "--work-session",
            "ws-any",
            "--deny");

    assertEquals(2, code, out + err);
    assertTrue(err.contains("REQUEST_ID"), err);
  }

  @Test
  void scope_options_with_a_denial_are_a_usage_error_sent_nowhere() {
    String ws = workSession();
    Request request = pendingRequest(ws);

    assertEquals(2, review(CAST.humanActor(), ws, request.getId(), "--deny", "--max-uses", "2"));
    assertTrue(err.contains("not with --deny"), err);
    assertEquals(2, review(CAST.humanActor(), ws, request.getId(), "--approve", "--max-uses", "0"));
    assertEquals(
        2, review(CAST.humanActor(), ws, request.getId(), "--approve", "--expires-in", "soon"));
    assertTrue(err.contains("20m"), err);
    assertEquals(RequestStatus.PENDING, agent.getRequest(ws, request.getId()).getStatus());
  }

  @Test
  void without_a_host_it_is_a_usage_error_naming_the_connection_options() {
    assertEquals(2, run("review", "--work-session", "ws-any", "--deny", "req-any"));
    assertTrue(err.contains("--base-url"), err);
  }
}
