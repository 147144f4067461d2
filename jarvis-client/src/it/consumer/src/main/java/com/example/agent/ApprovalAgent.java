package com.example.agent;

import dev.jarvis.client.JarvisClient;
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
import dev.jarvis.model.RiskClass;
import dev.jarvis.model.WorkerType;
import java.time.Duration;
import java.util.List;

/**
 * The full approval flow, as docs/client.md counts it: register, WorkSession, a review_required
 * decision, its Request, a human's bounded approval, the approved action and its Contribution,
 * completion, export.
 */
public final class ApprovalAgent {

  private final JarvisClient admin;
  private final JarvisClient human;
  private final JarvisClient agent;
  private final String policyId;

  public ApprovalAgent(JarvisClient client, String humanActor, String agentActor, String policyId) {
    this.admin = client;
    this.human = client.as(humanActor);
    this.agent = client.as(agentActor);
    this.policyId = policyId;
  }

  public EvidenceManifest run() {
    admin.registerWorker(admin.records().worker("worker-human-1", WorkerType.HUMAN, "reviewer"));
    admin.registerWorker(admin.records().worker("worker-agent-1", WorkerType.AGENT, "assistant"));
    admin.registerActor(admin.records().actor(human.actorId(), "worker-human-1", ActorType.HUMAN));
    admin.registerActor(admin.records().actor(agent.actorId(), "worker-agent-1", ActorType.AGENT));
    String ws =
        human
            .createWorkSession(
                human
                    .records()
                    .workSession(
                        "Answer with reviewed sources.",
                        "worker-human-1",
                        "worker-agent-1",
                        policyId))
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
                    policyId,
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
                .request(decision, "worker-agent-1", "worker-human-1", Duration.ofHours(1)));
    human.recordReview(
        ws,
        human
            .records()
            .approval(
                request,
                "worker-human-1",
                human.currentCursor(ws),
                Duration.ofMinutes(20)));
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
    return human.exportEvidenceManifest(ws);
  }
}
