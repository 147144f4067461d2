package dev.jarvis.samples;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.model.ContributionRole;
import dev.jarvis.model.ContributionType;
import dev.jarvis.model.ContributorType;
import dev.jarvis.model.JarvisEventPayload;
import dev.jarvis.model.Policy;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.RiskClass;
import dev.jarvis.model.WorkerType;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

/**
 * Small, spec-valid request bodies for the records a test sends, as JSON trees the test may break
 * on purpose, with the ids and times given (the times written exactly as given). Each is a record
 * {@link ProtocolRecords} builds, with the fewest fields its schema requires; this class only picks
 * the sample's values and turns the record into a fresh tree.
 */
public final class SampleRecords {

  /**
   * The id of {@link #policyRecord()}: the spec's example Policy, which the reference host's demo
   * holds, and the Policy the samples name unless given another. The spec has no operation to
   * create Policies, so a host must hold the Policy a WorkSession names.
   */
  public static final String POLICY_ID = "policy-bounded-001";

  private static final String SAMPLE_POLICY =
      """
      {"id": "policy-bounded-001", "owner_worker_id": "worker-human-001",
       "created_by_actor_id": "actor-human-001", "autonomy_level": "bounded_execute",
       "allowed_actions": [{"action": "summarize"}, {"action": "read_source"}],
       "denied_actions": [{"action": "delete_repository"}],
       "review_required_actions": [{"action": "fetch_external_source"}],
       "risk_classes": ["low", "medium", "high"],
       "escalation_rules": [{"trigger": "high risk", "risk_class": "high",
                             "required_action": "require_review",
                             "reason": "High-risk actions wait for a human."}],
       "created_at": "2026-01-01T00:00:00Z", "tool_grants": ["tool:search"],
       "request_limits": {"max_pending_requests": 2}}
      """;

  /** The ids and times of these records are all given, so neither source is ever asked. */
  private static final Clock UNUSED_CLOCK = Clock.fixed(Instant.EPOCH, ZoneOffset.UTC);

  private SampleRecords() {}

  /**
   * The Policy {@value #POLICY_ID}, which the demo, the test kit, the load generator and the
   * conformance runs hold: summaries and reading sources are allowed, deleting a repository is
   * denied, fetching an external source needs a human's review, so does any high-risk action, at
   * most two Requests pending; every other action is denied. A fresh record each call.
   */
  public static Policy policyRecord() {
    try {
      return JarvisJson.mapper().readValue(SAMPLE_POLICY, Policy.class);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("the sample Policy does not read as a Policy", e);
    }
  }

  /** {@link #policyRecord()} as a tree. */
  public static ObjectNode policy() {
    return tree(policyRecord());
  }

  /** A Worker of type {@code human} or {@code agent}. */
  public static ObjectNode worker(String id, String type) {
    return tree(
        records("unused")
            .worker(
                id,
                WorkerType.fromValue(type),
                type.equals("human") ? "reviewer" : "assistant",
                List.of("grant:work-session"),
                List.of("work-session")));
  }

  /** An Actor for a Worker, allowed to append events, valid from {@code createdAt}. */
  public static ObjectNode actor(String id, String workerId, String type, String createdAt) {
    ObjectNode actor =
        tree(records("unused").actor(id, workerId, dev.jarvis.model.ActorType.fromValue(type)));
    actor.put("created_at", createdAt);
    return actor;
  }

  /**
   * {@link #workSession(String, String, String, String, String, String)} under {@link #POLICY_ID}.
   */
  public static ObjectNode workSession(
      String id,
      String createdByActorId,
      String humanWorkerId,
      String agentWorkerId,
      String createdAt) {
    return workSession(id, createdByActorId, humanWorkerId, agentWorkerId, POLICY_ID, createdAt);
  }

  /**
   * The body of {@code createWorkSession}: status {@code active}, revision 0 and the genesis hash,
   * as the WorkSession stands before its first event.
   */
  public static ObjectNode workSession(
      String id,
      String createdByActorId,
      String humanWorkerId,
      String agentWorkerId,
      String policyId,
      String createdAt) {
    ObjectNode session =
        tree(
            records(createdByActorId)
                .workSession(
                    id,
                    "Check the protocol behaviour of a Jarvis host.",
                    humanWorkerId,
                    agentWorkerId,
                    policyId));
    session.put("created_at", createdAt);
    session.put("updated_at", createdAt);
    return session;
  }

  /** {@link #policyDecision(String, String, String, String, String)} under {@link #POLICY_ID}. */
  public static ObjectNode policyDecision(
      String id, String workSessionId, String actorId, String createdAt) {
    return policyDecision(id, workSessionId, actorId, POLICY_ID, createdAt);
  }

  /** An {@code allow} PolicyDecision for a low-risk read action, with its action hash. */
  public static ObjectNode policyDecision(
      String id, String workSessionId, String actorId, String policyId, String createdAt) {
    ObjectNode decision =
        tree(
            records(actorId)
                .policyDecision(
                    workSessionId,
                    policyId,
                    ProtocolRecords.action("read_source", "source:conformance", null),
                    RiskClass.LOW,
                    PolicyDecisionResult.ALLOW,
                    "Reading a public source is within policy.")
                .id(id));
    decision.put("created_at", createdAt);
    return decision;
  }

  /** An {@code execution} Contribution of one agent, supported by one event. */
  public static ObjectNode contribution(
      String id,
      String workSessionId,
      String workerId,
      String actorId,
      String eventId,
      String createdAt) {
    ObjectNode contribution =
        tree(
            records(actorId)
                .contribution(
                    workSessionId,
                    ContributorType.AGENT,
                    ContributionType.EXECUTION,
                    List.of(ProtocolRecords.contributor(workerId, actorId, ContributionRole.AGENT)),
                    eventId)
                .id(id));
    contribution.put("created_at", createdAt);
    return contribution;
  }

  /**
   * A JarvisEvent draft of {@code type} (e.g. {@code work_session.completed}) about the
   * WorkSession, without {@code sequence}, {@code previous_hash} and {@code event_hash}: give it to
   * {@code EventChain.next} to link it.
   */
  public static ObjectNode eventDraft(
      String id, String workSessionId, String actorId, String type, String timestamp) {
    ObjectNode event =
        tree(
            records(actorId)
                .addressedEvent(
                    workSessionId,
                    type,
                    JarvisEventPayload.ObjectTypeEnum.WORK_SESSION,
                    workSessionId,
                    type.substring(type.indexOf('.') + 1))
                .id(id));
    event.put("timestamp", timestamp);
    return event;
  }

  /** Factories acting as {@code actorId}; every id and time they make is replaced by the given. */
  private static ProtocolRecords records(String actorId) {
    return new ProtocolRecords(UNUSED_CLOCK, () -> "unused", actorId);
  }

  private static ObjectNode tree(Object record) {
    return JarvisJson.mapper().valueToTree(record);
  }
}
