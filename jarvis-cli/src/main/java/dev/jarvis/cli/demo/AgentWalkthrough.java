package dev.jarvis.cli.demo;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.hash.ActionHash;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.model.Actor;
import dev.jarvis.model.ApprovalScope;
import dev.jarvis.model.Contribution;
import dev.jarvis.model.EvidenceManifest;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.LearningRecord;
import dev.jarvis.model.MemoryProposal;
import dev.jarvis.model.OutcomeReport;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.Request;
import dev.jarvis.model.Review;
import dev.jarvis.model.Takeover;
import dev.jarvis.model.WorkSession;
import dev.jarvis.model.Worker;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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
 * completes, its evidence is exported, and feedback arrives afterwards.
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

  /** What the walkthrough leaves behind. */
  public record Result(String workSessionId, EvidenceManifest manifest, ChainCursor finalCursor) {}

  /** Runs every step; a refusal or transport failure ends it with that exception. */
  public Result run() {
    String run = ids.get();
    JarvisClient admin = client.as(cast.adminActor());
    JarvisClient human = client.as(cast.humanActor());
    JarvisClient agent = client.as(cast.agentActor());

    // 1. Register the two Workers and their Actors (the host's admin Actor may do that).
    admin.registerWorker(record(Worker.class, worker(cast.humanWorker(), "human")));
    admin.registerWorker(record(Worker.class, worker(cast.agentWorker(), "agent")));
    admin.registerActor(record(Actor.class, actor(cast.humanActor(), cast.humanWorker(), "human")));
    admin.registerActor(record(Actor.class, actor(cast.agentActor(), cast.agentWorker(), "agent")));
    step(cast.adminActor(), "registered 2 Workers and 2 Actors", null);

    // 2. Create the WorkSession: genesis, revision 0 and hash:protocol-genesis, answered at 1.
    String ws = "ws-" + run;
    WorkSession session =
        human.createWorkSession(
            record(
                WorkSession.class,
                """
                {"id": "%s", "protocol_version": "v0.1", "created_by_actor_id": "%s",
                 "objective": "Answer the customer's question with reviewed, cited sources.",
                 "human_worker_id": "%s", "agent_worker_id": "%s", "policy_id": "%s",
                 "status": "active", "revision": 0, "last_event_hash": "hash:protocol-genesis",
                 "event_log_ref": "event-log:%s", "created_at": "%s", "updated_at": "%s"}
                """
                    .formatted(
                        ws,
                        cast.humanActor(),
                        cast.humanWorker(),
                        cast.agentWorker(),
                        cast.policyId(),
                        ws,
                        now(),
                        now())));
    step(cast.humanActor(), "created WorkSession " + ws + " (" + session.getStatus() + ")", ws);

    // 3. The agent wants to clean up by deleting a repository. The Policy denies that: the
    //    decision is recorded, and a deny is an ordinary value, not an exception. It opens a
    //    Request so that a human sees what was blocked; the human confirms the denial.
    JsonNode delete =
        json(
            """
            {"action": "delete_repository", "target_ref": "repo:scratch",
             "scope_ref": "scope:cleanup"}
            """);
    String deniedId = "pd-delete-" + run;
    String deniedRequestId = "req-delete-" + run;
    PolicyDecision denied =
        agent.recordPolicyDecision(
            ws,
            decision(
                deniedId,
                ws,
                delete,
                "deny",
                "The Policy denies deleting repositories.",
                deniedRequestId));
    step(cast.agentActor(), "PolicyDecision " + deniedId + ": " + denied.getResult(), ws);
    agent.createRequest(
        ws,
        request(
            deniedRequestId,
            ws,
            deniedId,
            delete,
            "Deleting the scratch repository is denied by policy.",
            "Confirm the denial or take the cleanup over."));
    step(cast.agentActor(), "Request " + deniedRequestId + " opened for the denied action", ws);
    human.recordReview(
        ws,
        record(
            Review.class,
            """
            {"id": "review-delete-%s", "work_session_id": "%s", "reviewer_actor_id": "%s",
             "reviewer_worker_id": "%s", "target_ref": "request:%s", "decision": "deny",
             "comments": "Keep the repository.", "created_at": "%s"}
            """
                .formatted(
                    run, ws, cast.humanActor(), cast.humanWorker(), deniedRequestId, now())));
    step(cast.humanActor(), "Review review-delete-" + run + ": deny (the block stands)", ws);

    // 4. The agent wants an external source. The Policy says review first: the decision records
    //    that, and names the Request it opens. A review_required (or deny) decision is a value.
    JsonNode fetch =
        json(
            """
            {"action": "fetch_external_source", "target_ref": "source:vendor-docs",
             "scope_ref": "scope:source-collection"}
            """);
    String decisionId = "pd-" + run;
    String requestId = "req-" + run;
    PolicyDecision decision =
        agent.recordPolicyDecision(
            ws,
            decision(
                decisionId,
                ws,
                fetch,
                "review_required",
                "External sources need a human's review.",
                requestId));
    step(cast.agentActor(), "PolicyDecision " + decisionId + ": " + decision.getResult(), ws);

    Request request =
        agent.createRequest(
            ws,
            request(
                requestId,
                ws,
                decisionId,
                fetch,
                "Fetching vendor documentation needs approval.",
                "Approve, narrow or deny the fetch."));
    // The ApprovalScope binds the Request as it stood: its revision and the hash of its event.
    ChainCursor requestAt = client.cursor(ws).orElseGet(() -> cursorOf(human.getWorkSession(ws)));
    step(cast.agentActor(), "Request " + request.getId() + " is " + request.getStatus(), ws);

    // 5. The human approves, bounded: this action, this session, this agent, once, for 20 minutes.
    String reviewId = "review-" + run;
    ApprovalScope scope =
        record(
            ApprovalScope.class,
            """
            {"request_id": "%s", "review_id": "%s", "policy_decision_id": "%s",
             "request_revision": %d, "request_event_hash": "%s",
             "normalized_action_hash": "%s", "approved_action": %s,
             "allowed_scope": {"scope_ref": "scope:source-collection"},
             "denied_scope": {"scope_ref": "scope:any-other-external-source"},
             "expires_at": "%s", "max_uses": 1,
             "applies_to_work_session_id": "%s", "applies_to_actor_id": "%s"}
            """
                .formatted(
                    requestId,
                    reviewId,
                    decisionId,
                    requestAt.revision(),
                    requestAt.lastEventHash(),
                    ActionHash.of(fetch),
                    fetch,
                    later(Duration.ofMinutes(20)),
                    ws,
                    cast.agentActor()));
    Review review =
        human.recordReview(
            ws,
            record(
                    Review.class,
                    """
                    {"id": "%s", "work_session_id": "%s", "reviewer_actor_id": "%s",
                     "reviewer_worker_id": "%s", "target_ref": "request:%s", "decision": "approve",
                     "comments": "Fine once; cite the version you read.", "created_at": "%s"}
                    """
                        .formatted(
                            reviewId, ws, cast.humanActor(), cast.humanWorker(), requestId, now()))
                .approvalScope(scope));
    step(cast.humanActor(), "Review " + review.getId() + ": " + review.getDecision(), ws);

    // 6. The approved action, as an event that cites the decision that allowed it.
    String actionEvent = "event-fetch-" + run;
    agent.appendJarvisEvent(
        ws,
        record(
            JarvisEvent.class,
            """
            {"id": "%s", "type": "source.collected",
             "payload": {"object_type": "policy_decision", "object_id": "%s",
                         "action": "fetch_external_source",
                         "evidence_refs": ["policy_decision:%s"],
                         "summary": "Fetched the vendor docs once, as approved."}}
            """
                .formatted(actionEvent, decisionId, decisionId)));
    step(cast.agentActor(), "appended event " + actionEvent + " (the approved fetch)", ws);

    // 7. Credit where it is due: a shared contribution names both individuals.
    String contributionId = "contribution-" + run;
    human.recordContribution(
        ws,
        record(
            Contribution.class,
            """
            {"id": "%s", "work_session_id": "%s",
             "contributor_refs": [
               {"worker_id": "%s", "actor_id": "%s", "contribution_role": "human"},
               {"worker_id": "%s", "actor_id": "%s", "contribution_role": "agent"}],
             "contributor_type": "shared", "contribution_type": "research",
             "event_refs": ["%s"], "created_at": "%s"}
            """
                .formatted(
                    contributionId,
                    ws,
                    cast.humanWorker(),
                    cast.humanActor(),
                    cast.agentWorker(),
                    cast.agentActor(),
                    actionEvent,
                    now())));
    step(cast.humanActor(), "Contribution " + contributionId + " (shared)", ws);

    // 8. The human takes a branch over (the agent's writes there stop), then hands it back.
    String takeoverId = "takeover-" + run;
    String takeover =
        """
        {"id": "%s", "work_session_id": "%s", "requested_by_actor_id": "%s",
         "controlling_actor_id": "%s",
         "affected_scope": {"blocking_scope": "branch", "scope_ref": "scope:final-wording"},
         "reason": "The human words the final answer.", "lock_epoch": 1, "state": "locked",
         "created_at": "%s"}
        """
            .formatted(takeoverId, ws, cast.humanActor(), cast.humanActor(), now());
    human.recordTakeover(ws, record(Takeover.class, takeover));
    step(cast.humanActor(), "Takeover " + takeoverId + " locked (epoch 1)", ws);
    ObjectNode resumed = (ObjectNode) json(takeover);
    resumed.put("state", "resumed").put("resumed_by_actor_id", cast.humanActor());
    resumed.put("resolved_at", now()).put("reconciliation_notes", "Final wording merged.");
    resumed.putArray("reconciliation_refs").add("reconciliation:final-wording");
    human.recordTakeover(ws, record(Takeover.class, resumed.toString()));
    step(cast.humanActor(), "Takeover " + takeoverId + " resumed after reconciliation", ws);

    // 9. What the pair learned, and a memory the agent proposes: governed until a human reviews it.
    String learningId = "learning-" + run;
    human.createLearningRecord(
        ws,
        record(
            LearningRecord.class,
            """
            {"id": "%s", "work_session_id": "%s", "created_by_actor_id": "%s",
             "subject_type": "pair", "subject_ref": "pair:%s+%s", "lesson_type": "process",
             "source_event_refs": ["%s"], "review_state": "proposed", "scope": "scope:project",
             "created_at": "%s"}
            """
                .formatted(
                    learningId,
                    ws,
                    cast.humanActor(),
                    cast.humanWorker(),
                    cast.agentWorker(),
                    actionEvent,
                    now())));
    step(cast.humanActor(), "LearningRecord " + learningId, ws);
    String memoryId = "memory-" + run;
    agent.createMemoryProposal(
        ws,
        record(
            MemoryProposal.class,
            """
            {"id": "%s", "work_session_id": "%s", "proposed_by_actor_id": "%s",
             "proposed_for": "agent", "memory_scope": "scope:project",
             "memory_type": "preference", "content": "Ask before fetching vendor documentation.",
             "provenance": ["event:%s"], "confidence": 0.8, "review_required": true,
             "status": "pending_review", "learning_record_refs": ["%s"], "created_at": "%s"}
            """
                .formatted(memoryId, ws, cast.agentActor(), actionEvent, learningId, now())));
    step(cast.agentActor(), "MemoryProposal " + memoryId + " (pending review)", ws);

    // 10. The work is done: an event of type work_session.completed makes the session terminal.
    human.appendJarvisEvent(
        ws,
        record(
            JarvisEvent.class,
            """
            {"id": "event-done-%s", "type": "work_session.completed",
             "payload": {"object_type": "work_session", "object_id": "%s", "action": "completed",
                         "summary": "Answer delivered."}}
            """
                .formatted(run, ws)));
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
        record(
            OutcomeReport.class,
            """
            {"id": "outcome-%s", "work_session_id": "%s", "source_ref": "source:customer-survey",
             "reporter_ref": "reporter:customer-1", "accepted_by_actor_id": "%s",
             "outcome": "The customer confirmed the answer solved the problem.",
             "learning_record_refs": ["%s"], "received_at": "%s"}
            """
                .formatted(run, ws, cast.humanActor(), learningId, now())));
    step(cast.humanActor(), "OutcomeReport outcome-" + run + " accepted", null);
    return new Result(ws, manifest, last);
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

  private String now() {
    return RequestTimestamp.format(clock.instant());
  }

  private String later(Duration duration) {
    return RequestTimestamp.format(clock.instant().plus(duration));
  }

  private PolicyDecision decision(
      String id, String ws, JsonNode action, String result, String reason, String requestId) {
    return record(
        PolicyDecision.class,
        """
        {"id": "%s", "work_session_id": "%s", "actor_id": "%s", "policy_id": "%s",
         "requested_action": %s, "normalized_action_hash": "%s", "risk_class": "medium",
         "result": "%s", "reason": "%s", "request_id": "%s", "created_at": "%s"}
        """
            .formatted(
                id,
                ws,
                cast.agentActor(),
                cast.policyId(),
                action,
                ActionHash.of(action),
                result,
                reason,
                requestId,
                now()));
  }

  private Request request(
      String id,
      String ws,
      String decisionId,
      JsonNode action,
      String summary,
      String humanDecisionNeeded) {
    return record(
        Request.class,
        """
        {"id": "%s", "protocol_version": "v0.1", "work_session_id": "%s",
         "requester_actor_id": "%s", "requester_worker_id": "%s",
         "target_human_worker_id": "%s", "policy_decision_id": "%s",
         "type": "permission", "blocking_scope": "action", "reason_code": "policy",
         "reason_summary": "%s", "requested_action": %s,
         "requested_outcome": "Let the agent go ahead within this WorkSession only.",
         "risk_class": "medium", "human_decision_needed": "%s",
         "options": [{"id": "option-approve", "label": "Approve once",
                      "effect": "The agent goes ahead once."}],
         "default_if_no_response": {"action": "keep_blocked_scope_stopped",
           "reason": "Without a human the blocked action stays stopped."},
         "status": "pending", "created_at": "%s", "expires_at": "%s"}
        """
            .formatted(
                id,
                ws,
                cast.agentActor(),
                cast.agentWorker(),
                cast.humanWorker(),
                decisionId,
                summary,
                action,
                humanDecisionNeeded,
                now(),
                later(Duration.ofMinutes(30))));
  }

  private static String worker(String id, String type) {
    return """
        {"id": "%s", "type": "%s", "role": "%s",
         "authority_scope": {"grants": ["work:answer-questions"]},
         "accountability_scope": {"accountable_for": ["outcome:customer-answer"]}}
        """
        .formatted(id, type, type.equals("human") ? "support engineer" : "research assistant");
  }

  private String actor(String id, String workerId, String type) {
    return """
        {"id": "%s", "worker_id": "%s", "type": "%s",
         "event_authority": {"can_append_events": true},
         "contribution_scope": {"contribution_roles": ["%s"]},
         "created_at": "%s"}
        """
        .formatted(id, workerId, type, type, now());
  }

  private static JsonNode json(String text) {
    try {
      return JarvisJson.mapper().readTree(text);
    } catch (JacksonException e) {
      throw new IllegalArgumentException("walkthrough JSON: " + e.getOriginalMessage(), e);
    }
  }

  private static <T> T record(Class<T> type, String text) {
    try {
      return JarvisJson.mapper().readValue(text, type);
    } catch (JacksonException e) {
      throw new IllegalArgumentException(
          "walkthrough " + type.getSimpleName() + ": " + e.getOriginalMessage(), e);
    }
  }
}
