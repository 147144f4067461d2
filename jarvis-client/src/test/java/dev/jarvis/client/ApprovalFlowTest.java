package dev.jarvis.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.ContributionRole;
import dev.jarvis.model.ContributionType;
import dev.jarvis.model.ContributorType;
import dev.jarvis.model.EvidenceManifest;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.PolicyActionRequest;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.Request;
import dev.jarvis.model.RequestStatus;
import dev.jarvis.model.Review;
import dev.jarvis.model.RiskClass;
import dev.jarvis.model.WorkSession;
import dev.jarvis.model.WorkSessionStatus;
import dev.jarvis.model.WorkerType;
import dev.jarvis.testkit.JarvisHostStub;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The approval flow of {@code docs/client.md}, built with the record factories against the stub
 * host (the host kit's engine): every record is accepted as built, nothing off-spec is sent.
 */
class ApprovalFlowTest {

  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-06-12T18:00:00Z"), ZoneOffset.UTC);
  static final String POLICY = "policy-bounded-001"; // the stub's sample Policy

  @RegisterExtension JarvisHostStub host = JarvisHostStub.builder().clock(CLOCK).build();

  private final AtomicInteger ids = new AtomicInteger();

  @Test
  void theApprovalFlowBuiltWithTheRecordFactoriesIsAcceptedAsBuilt() {
    JarvisClient client =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(host.baseUri())
                .hostAuth("Bearer test")
                .actorId(JarvisHostStub.ADMIN_ACTOR_ID)
                .clock(CLOCK)
                .idempotencyKeys(() -> "k" + ids.incrementAndGet())
                .build());

    // --- the flow, as an agent developer writes it ---
    JarvisClient admin = client,
        human = client.as("actor-human-1"),
        agent = client.as("actor-agent-1");
    admin.registerWorker(admin.records().worker("worker-human-1", WorkerType.HUMAN, "reviewer"));
    admin.registerWorker(admin.records().worker("worker-agent-1", WorkerType.AGENT, "assistant"));
    admin.registerActor(admin.records().actor("actor-human-1", "worker-human-1", ActorType.HUMAN));
    admin.registerActor(admin.records().actor("actor-agent-1", "worker-agent-1", ActorType.AGENT));
    WorkSession session =
        human.createWorkSession(
            human
                .records()
                .workSession(
                    "Answer with reviewed sources.", "worker-human-1", "worker-agent-1", POLICY));
    String ws = session.getId();
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
    Review review =
        human.recordReview(
            ws,
            human
                .records()
                .approval(
                    request, "worker-human-1", client.currentCursor(ws), Duration.ofMinutes(20)));
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
    // --- end of the flow ---

    assertEquals(WorkSessionStatus.ACTIVE, session.getStatus());
    assertEquals(1, session.getRevision());
    assertEquals(request.getId(), decision.getRequestId());
    assertEquals(RequestStatus.PENDING, request.getStatus());
    assertEquals("request:" + request.getId(), review.getTargetRef());
    assertEquals(ws, manifest.getWorkSessionId());
    assertEquals(
        WorkSessionStatus.COMPLETED.getValue(),
        host.workSession(ws).orElseThrow().path("status").asText());
    assertEquals(List.of(), host.receivedViolations());
  }
}
