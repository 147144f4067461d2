package dev.jarvis.examples.actors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.client.ActorAuth;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.client.JarvisRefusalException;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.host.Credentials;
import dev.jarvis.host.WorkSessionGovernance;
import dev.jarvis.host.reference.ReferenceHost;
import dev.jarvis.host.reference.ReferenceHostConfig;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.ContributionRole;
import dev.jarvis.model.ContributionType;
import dev.jarvis.model.ContributorType;
import dev.jarvis.model.EvidenceManifest;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.PolicyActionRequest;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.Request;
import dev.jarvis.model.RiskClass;
import dev.jarvis.model.WorkerType;
import dev.jarvis.samples.SampleRecords;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One process, several Actors, each with its own token: the reference host started with a
 * credentials file binding each token to one Actor (as {@code serve --credentials} does), and one
 * client whose {@link ActorAuth} gives each acting Actor its own {@code Authorization}. The views
 * {@code client.as(id)} share one cursor store, so the human's Review builds on the agent's Request
 * without a stale revision.
 */
class OneClientSeveralActorsTest {

  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-06-12T18:00:00Z"), ZoneOffset.UTC);
  static final String ADMIN = "host-admin";
  static final String HUMAN = "actor-human-1";
  static final String AGENT = "actor-agent-1";
  static final String POLICY = "policy-bounded-001";

  /** Test tokens, not secrets: each bound by the credentials file to the one Actor named. */
  static final Map<String, String> TOKENS =
      Map.of(ADMIN, "token-of-the-admin", HUMAN, "token-of-the-human", AGENT, "token-of-the-agent");

  @TempDir Path work;

  private ReferenceHost host;
  private final AtomicInteger ids = new AtomicInteger();

  @BeforeEach
  void startTheHostWithACredentialsFile() throws Exception {
    StringBuilder entries = new StringBuilder();
    TOKENS.forEach(
        (actor, token) ->
            entries
                .append(entries.length() == 0 ? "" : ",")
                .append(
                    """
                    {"token_sha256": "%s", "actors": ["%s"], "admin": %s}"""
                        .formatted(Credentials.sha256Hex(token), actor, actor.equals(ADMIN))));
    Path credentials = Files.writeString(work.resolve("credentials.json"), "[" + entries + "]");
    host =
        ReferenceHost.start(
            ReferenceHostConfig.builder()
                .auth(Credentials.fromJson(credentials))
                .port(0)
                .policy(SampleRecords.policy())
                // The sample Policy's owner is another human Worker: the host assigns it (#37).
                .host(
                    b ->
                        b.clock(CLOCK)
                            .governance(
                                WorkSessionGovernance.NONE.assignPolicy(POLICY, "worker-human-1")))
                .build());
  }

  @AfterEach
  void stopTheHost() {
    host.close(Duration.ZERO);
  }

  private JarvisClient client() {
    return JarvisClient.create(
        JarvisClientOptions.builder()
            .baseUri(host.baseUri())
            .hostAuth(
                ActorAuth.perActor(
                    Map.of(ADMIN, bearer(ADMIN), HUMAN, bearer(HUMAN), AGENT, bearer(AGENT))))
            .actorId(ADMIN)
            .clock(CLOCK)
            .idempotencyKeys(() -> "k" + ids.incrementAndGet())
            .build());
  }

  private static String bearer(String actor) {
    return "Bearer " + TOKENS.get(actor);
  }

  @Test
  void oneClientRunsTheApprovalFlowWithASeparateTokenPerActor() {
    try (JarvisClient admin = client()) {
      JarvisClient human = admin.as(HUMAN), agent = admin.as(AGENT);
      admin.registerWorker(admin.records().worker("worker-human-1", WorkerType.HUMAN, "reviewer"));
      admin.registerWorker(admin.records().worker("worker-agent-1", WorkerType.AGENT, "assistant"));
      admin.registerActor(admin.records().actor(HUMAN, "worker-human-1", ActorType.HUMAN));
      admin.registerActor(admin.records().actor(AGENT, "worker-agent-1", ActorType.AGENT));
      String ws =
          human
              .createWorkSession(
                  human
                      .records()
                      .workSession(
                          "Answer with reviewed sources.",
                          "worker-human-1",
                          "worker-agent-1",
                          POLICY))
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
                      POLICY,
                      fetch,
                      RiskClass.MEDIUM,
                      PolicyDecisionResult.REVIEW_REQUIRED,
                      "Needs review.")
                  .requestId(agent.records().newId("req")));
      Request request =
          agent.createRequest(
              ws,
              agent
                  .records()
                  .request(decision, "worker-agent-1", "worker-human-1", Duration.ofHours(1)));
      // The human's view builds on the cursor the agent's calls left: one store for every view.
      assertSame(admin.cursor(ws).orElseThrow(), human.cursor(ws).orElseThrow());
      human.recordReview(
          ws,
          human
              .records()
              .approval(
                  request, "worker-human-1", human.currentCursor(ws), Duration.ofMinutes(20)));
      JarvisEvent fetched =
          agent.appendJarvisEvent(ws, ProtocolRecords.actionEvent(decision, "source.collected"));
      agent.recordContribution(
          ws,
          agent
              .records()
              .contribution(
                  ws,
                  ContributorType.AGENT,
                  ContributionType.RESEARCH,
                  List.of(
                      ProtocolRecords.contributor(
                          "worker-agent-1", agent.actorId(), ContributionRole.AGENT)),
                  fetched.getId()));
      human.appendJarvisEvent(ws, ProtocolRecords.completion(ws));
      EvidenceManifest manifest = human.exportEvidenceManifest(ws);

      assertEquals(ws, manifest.getWorkSessionId());
      assertEquals(AGENT, fetched.getActorId());
    }
  }

  @Test
  void aTokenBoundToAnotherActorIsRefusedSoEachViewMustSendItsOwn() {
    JarvisClient wrong =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(host.baseUri())
                .hostAuth(bearer(AGENT)) // one credential for every Actor: not the admin's
                .actorId(ADMIN)
                .clock(CLOCK)
                .build());
    JarvisRefusalException refused =
        assertThrows(
            JarvisRefusalException.class,
            () ->
                wrong.registerWorker(
                    wrong.records().worker("worker-human-1", WorkerType.HUMAN, "reviewer")));
    assertEquals(ProtocolErrorId.UNAUTHORIZED_ACTOR, refused.errorId());
    assertTrue(refused.getMessage().startsWith("registerWorker (PUT /workers/worker-human-1): "));
    assertTrue(!refused.getMessage().contains(TOKENS.get(AGENT)), "never echoes the credential");
    wrong.close();
  }
}
