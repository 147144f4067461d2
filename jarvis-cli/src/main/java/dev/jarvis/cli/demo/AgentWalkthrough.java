package dev.jarvis.cli.demo;

import dev.jarvis.client.JarvisClient;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.ApprovalBoundary;
import dev.jarvis.model.BlockingScope;
import dev.jarvis.model.ContributionRole;
import dev.jarvis.model.ContributionType;
import dev.jarvis.model.ContributorType;
import dev.jarvis.model.EvidenceManifest;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.LearningSubjectType;
import dev.jarvis.model.PolicyActionRequest;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.ProposalTargetType;
import dev.jarvis.model.Request;
import dev.jarvis.model.Review;
import dev.jarvis.model.ReviewDecision;
import dev.jarvis.model.RiskClass;
import dev.jarvis.model.Takeover;
import dev.jarvis.model.TakeoverState;
import dev.jarvis.model.WorkSession;
import dev.jarvis.model.Worker;
import dev.jarvis.model.WorkerType;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.Supplier;

/**
 * The agent walkthrough: one governed WorkSession from registration to OutcomeReport, run with a
 * {@link JarvisClient} against any Jarvis host. Each step prints one timeline line.
 *
 * <p>The story: an AgentWorker wants to delete a repository; the Policy denies it, the decision
 * says so and opens a Request, and the human confirms the denial. Then it wants an external source;
 * the Policy sends that to review, so its PolicyDecision opens a Request; the HumanWorker approves
 * it with a bounded ApprovalScope; the agent acts, citing the decision; both are credited; the
 * human takes a branch over and hands it back; the pair records what they learned; the session
 * completes, its evidence is exported, and feedback arrives afterwards. Every record is built by
 * the core's {@link ProtocolRecords} on the walkthrough's clock, with ids of the run.
 */
public final class AgentWalkthrough {

  /** The Actors and Policy the walkthrough uses; the host must hold the Policy. */
  public record Cast(
      String adminActor,
      String humanWorker,
      String humanActor,
      String agentWorker,
      String agentActor,
      String policyId) {

    /** The ids the embedded reference host is set up with. */
    public static Cast reference() {
      return new Cast(
          "host-admin",
          "worker-human-001",
          "actor-human-001",
          "worker-agent-001",
          "actor-agent-001",
          "policy-bounded-001");
    }
  }

  private final JarvisClient client;
  private final Cast cast;
  private final Clock clock;
  private final Supplier<String> ids;
  private final PrintStream out;
  private final Instant start;

  /**
   * @param client a client whose options name the host; the walkthrough switches Actors with {@link
   *     JarvisClient#as(String)}
   * @param ids unique suffixes for the records' ids, so that a walkthrough can run twice on a host
   */
  public AgentWalkthrough(
      JarvisClient client, Cast cast, Clock clock, Supplier<String> ids, PrintStream out) {
    this.client = client;
    this.cast = cast;
    this.clock = clock;
    this.ids = ids;
    this.out = out;
    this.start = clock.instant();
  }

  /**
   * What the walkthrough leaves behind: what it can audit offline when the host cannot be read back
   * (no {@code event-log}).
   *
   * @param finalCursor the WorkSession's cursor as read after the export
   * @param appended the events the walkthrough appended, as the host stored them (the client
   *     checked each against what it sent), in the order appended
   */
  public record Result(
      String workSessionId,
      EvidenceManifest manifest,
      ChainCursor finalCursor,
      List<JarvisEvent> appended) {

    public Result {
      appended = List.copyOf(appended);
    }
  }

  /** Runs every step; a refusal or transport failure ends it with that exception. */
  public Result run() {
    String run = ids.get();
    JarvisClient admin = client.as(cast.adminActor());
    JarvisClient human = client.as(cast.humanActor());
    JarvisClient agent = client.as(cast.agentActor());
    ProtocolRecords byAdmin = records(cast.adminActor());
    ProtocolRecords byHuman = records(cast.humanActor());
    ProtocolRecords byAgent = records(cast.agentActor());

    // 1. Register the two Workers and their Actors (the host's admin Actor may do that).
    admin.registerWorker(worker(byAdmin, cast.humanWorker(), WorkerType.HUMAN, "support engineer"));
    admin.registerWorker(
        worker(byAdmin, cast.agentWorker(), WorkerType.AGENT, "research assistant"));
    admin.registerActor(byAdmin.actor(cast.humanActor(), cast.humanWorker(), ActorType.HUMAN));
    admin.registerActor(byAdmin.actor(cast.agentActor(), cast.agentWorker(), ActorType.AGENT));
    step(cast.adminActor(), "registered 2 Workers and 2 Actors", null);

    // 2. Create the WorkSession: genesis, revision 0 and hash:protocol-genesis, answered at 1.
    String ws = "ws-" + run;
    WorkSession session =
        human.createWorkSession(
            byHuman.workSession(
                ws,
                "Answer the customer's question with reviewed, cited sources.",
                cast.humanWorker(),
                cast.agentWorker(),
                cast.policyId()));
    step(cast.humanActor(), "created WorkSession " + ws + " (" + session.getStatus() + ")", ws);

    // 3. The agent wants to clean up by deleting a repository. The Policy denies that: the
    //    decision is recorded, and a deny is an ordinary value, not an exception. It opens a
    //    Request so that a human sees what was blocked; the human confirms the denial.
    PolicyActionRequest delete =
        ProtocolRecords.action("delete_repository", "repo:scratch", "scope:cleanup");
    String deniedId = "pd-delete-" + run;
    String deniedRequestId = "req-delete-" + run;
    PolicyDecision denied =
        agent.recordPolicyDecision(
            ws,
            decision(
                byAgent,
                ws,
                delete,
                PolicyDecisionResult.DENY,
                "The Policy denies deleting repositories.",
                deniedId,
                deniedRequestId));
    step(cast.agentActor(), "PolicyDecision " + deniedId + ": " + denied.getResult(), ws);
    Request deniedRequest =
        agent.createRequest(
            ws,
            request(
                byAgent,
                denied,
                "Deleting the scratch repository is denied by policy.",
                "Confirm the denial or take the cleanup over."));
    step(cast.agentActor(), "Request " + deniedRequestId + " opened for the denied action", ws);
    human.recordReview(
        ws,
        byHuman
            .review(deniedRequest, cast.humanWorker(), ReviewDecision.DENY)
            .id("review-delete-" + run)
            .comments("Keep the repository."));
    step(cast.humanActor(), "Review review-delete-" + run + ": deny (the block stands)", ws);

    // 4. The agent wants an external source. The Policy says review first: the decision records
    //    that, and names the Request it opens. A review_required (or deny) decision is a value.
    PolicyActionRequest fetch =
        ProtocolRecords.action(
            "fetch_external_source", "source:vendor-docs", "scope:source-collection");
    String decisionId = "pd-" + run;
    String requestId = "req-" + run;
    PolicyDecision decision =
        agent.recordPolicyDecision(
            ws,
            decision(
                byAgent,
                ws,
                fetch,
                PolicyDecisionResult.REVIEW_REQUIRED,
                "External sources need a human's review.",
                decisionId,
                requestId));
    step(cast.agentActor(), "PolicyDecision " + decisionId + ": " + decision.getResult(), ws);

    Request request =
        agent.createRequest(
            ws,
            request(
                byAgent,
                decision,
                "Fetching vendor documentation needs approval.",
                "Approve, narrow or deny the fetch."));
    // The ApprovalScope binds the Request as it stood: its revision and the hash of its event.
    ChainCursor requestAt = client.cursor(ws).orElseGet(() -> cursorOf(human.getWorkSession(ws)));
    step(cast.agentActor(), "Request " + request.getId() + " is " + request.getStatus(), ws);

    // 5. The human approves, bounded: this action, this session, this agent, once, for 20 minutes.
    String reviewId = "review-" + run;
    Review review =
        human.recordReview(
            ws,
            byHuman
                .review(request, cast.humanWorker(), ReviewDecision.APPROVE)
                .id(reviewId)
                .comments("Fine once; cite the version you read.")
                .approvalScope(
                    byHuman
                        .approvalScope(request, reviewId, requestAt, Duration.ofMinutes(20))
                        .deniedScope(
                            new ApprovalBoundary().scopeRef("scope:any-other-external-source"))));
    step(cast.humanActor(), "Review " + review.getId() + ": " + review.getDecision(), ws);

    // 6. The approved action, as an event that cites the decision that allowed it.
    String actionEvent = "event-fetch-" + run;
    JarvisEvent fetched = ProtocolRecords.actionEvent(decision, "source.collected").id(actionEvent);
    fetched.getPayload().summary("Fetched the vendor docs once, as approved.");
    List<JarvisEvent> appended = new ArrayList<>();
    appended.add(agent.appendJarvisEvent(ws, fetched));
    step(cast.agentActor(), "appended event " + actionEvent + " (the approved fetch)", ws);

    // 7. Credit where it is due: a shared contribution names both individuals.
    String contributionId = "contribution-" + run;
    human.recordContribution(
        ws,
        byHuman
            .contribution(
                ws,
                ContributorType.SHARED,
                ContributionType.RESEARCH,
                List.of(
                    ProtocolRecords.contributor(
                        cast.humanWorker(), cast.humanActor(), ContributionRole.HUMAN),
                    ProtocolRecords.contributor(
                        cast.agentWorker(), cast.agentActor(), ContributionRole.AGENT)),
                actionEvent)
            .id(contributionId));
    step(cast.humanActor(), "Contribution " + contributionId + " (shared)", ws);

    // 8. The human takes a branch over (the agent's writes there stop), then hands it back.
    String takeoverId = "takeover-" + run;
    Takeover locked = takeover(byHuman, ws, takeoverId);
    human.recordTakeover(ws, locked);
    step(cast.humanActor(), "Takeover " + takeoverId + " locked (epoch 1)", ws);
    human.recordTakeover(
        ws,
        takeover(byHuman, ws, takeoverId)
            .createdAt(locked.getCreatedAt())
            .state(TakeoverState.RESUMED)
            .resumedByActorId(cast.humanActor())
            .resolvedAt(byHuman.now())
            .reconciliationNotes("Final wording merged.")
            .reconciliationRefs(new LinkedHashSet<>(List.of("reconciliation:final-wording"))));
    step(cast.humanActor(), "Takeover " + takeoverId + " resumed after reconciliation", ws);

    // 9. What the pair learned, and a memory the agent proposes: governed until a human reviews it.
    String learningId = "learning-" + run;
    human.createLearningRecord(
        ws,
        byHuman
            .learningRecord(
                ws,
                LearningSubjectType.PAIR,
                "pair:" + cast.humanWorker() + "+" + cast.agentWorker(),
                "process",
                "scope:project",
                actionEvent)
            .id(learningId));
    step(cast.humanActor(), "LearningRecord " + learningId, ws);
    String memoryId = "memory-" + run;
    agent.createMemoryProposal(
        ws,
        byAgent
            .memoryProposal(
                ws,
                ProposalTargetType.AGENT,
                "scope:project",
                "preference",
                "Ask before fetching vendor documentation.",
                0.8,
                "event:" + actionEvent)
            .id(memoryId)
            .learningRecordRefs(new LinkedHashSet<>(List.of(learningId))));
    step(cast.agentActor(), "MemoryProposal " + memoryId + " (pending review)", ws);

    // 10. The work is done: an event of type work_session.completed makes the session terminal.
    JarvisEvent done = ProtocolRecords.completion(ws).id("event-done-" + run);
    done.getPayload().summary("Answer delivered.");
    appended.add(human.appendJarvisEvent(ws, done));
    step(cast.humanActor(), "WorkSession completed", ws);

    // 11. Export the evidence: allowed only now, and it seals the session.
    EvidenceManifest manifest = human.exportEvidenceManifest(ws);
    ChainCursor last = cursorOf(human.getWorkSession(ws));
    step(
        cast.humanActor(),
        "EvidenceManifest "
            + manifest.getId()
            + " exported ("
            + manifest.getEvidenceItemRefs().size()
            + " evidence item(s), chain root "
            + abbreviate(manifest.getEventChainRoot())
            + ")",
        null);

    // 12. Feedback after the fact, citing what was learned; it does not touch the sealed session.
    human.submitOutcomeReport(
        byHuman
            .outcomeReport(
                ws,
                "source:customer-survey",
                "reporter:customer-1",
                "The customer confirmed the answer solved the problem.",
                learningId)
            .id("outcome-" + run));
    step(cast.humanActor(), "OutcomeReport outcome-" + run + " accepted", null);
    return new Result(ws, manifest, last, appended);
  }

  private void step(String actor, String what, String ws) {
    long millis = Duration.between(start, clock.instant()).toMillis();
    String revision =
        ws == null
            ? "      "
            : client.cursor(ws).map(c -> String.format("rev %-2d", c.revision())).orElse("rev ? ");
    out.printf("  +%5d ms  %s  %-16s %s%n", millis, revision, actor, what);
  }

  private static ChainCursor cursorOf(WorkSession session) {
    return new ChainCursor(session.getRevision(), session.getLastEventHash());
  }

  private static String abbreviate(String hash) {
    return hash.length() > 19 ? hash.substring(0, 19) + "…" : hash;
  }

  /** The record factories acting as {@code actorId}, on the walkthrough's clock and ids. */
  private ProtocolRecords records(String actorId) {
    return new ProtocolRecords(clock, ids, actorId);
  }

  private static Worker worker(ProtocolRecords records, String id, WorkerType type, String role) {
    return records.worker(
        id, type, role, List.of("work:answer-questions"), List.of("outcome:customer-answer"));
  }

  /** The agent's medium-risk decision on {@code action}, opening the Request {@code requestId}. */
  private PolicyDecision decision(
      ProtocolRecords byAgent,
      String ws,
      PolicyActionRequest action,
      PolicyDecisionResult result,
      String reason,
      String id,
      String requestId) {
    return byAgent
        .policyDecision(ws, cast.policyId(), action, RiskClass.MEDIUM, result, reason)
        .id(id)
        .requestId(requestId);
  }

  /** The agent's Request for what {@code decision} blocked, to the human, for 30 minutes. */
  private Request request(
      ProtocolRecords byAgent, PolicyDecision decision, String summary, String needed) {
    return byAgent
        .request(decision, cast.agentWorker(), cast.humanWorker(), Duration.ofMinutes(30))
        .reasonSummary(summary)
        .requestedOutcome("Let the agent go ahead within this WorkSession only.")
        .humanDecisionNeeded(needed);
  }

  /** The human's lock on the final wording, at epoch 1. */
  private static Takeover takeover(ProtocolRecords byHuman, String ws, String id) {
    return byHuman
        .takeover(
            ws, BlockingScope.BRANCH, "scope:final-wording", "The human words the final answer.")
        .id(id);
  }
}
