package dev.jarvis.core.sample;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.canonical.Sha256Hash;
import dev.jarvis.core.hash.ActionHash;

/**
 * Small, spec-valid request bodies for the records a test or the conformance suite sends: the
 * fewest fields each schema requires, with the ids and times given. Each call returns a fresh
 * object the caller may change.
 */
public final class SampleRecords {

  /**
   * The Policy id the samples name unless given another: the spec's example Policy, which the
   * reference host's demo holds. The spec has no operation to create Policies, so a host must hold
   * the Policy a WorkSession names.
   */
  public static final String POLICY_ID = "policy-bounded-001";

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private static final String BOUNDED_POLICY =
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

  private SampleRecords() {}

  /**
   * The Policy {@value #POLICY_ID}, which the demo, the test kit and the conformance runs hold:
   * summaries and reading sources are allowed, deleting a repository is denied, fetching an
   * external source needs a human's review, so does any high-risk action, at most two Requests
   * pending; every other action is denied.
   */
  public static ObjectNode policy() {
    try {
      return (ObjectNode) JarvisJson.mapper().readTree(BOUNDED_POLICY);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException("the sample Policy is not JSON", e);
    }
  }

  /** A Worker of type {@code human} or {@code agent}. */
  public static ObjectNode worker(String id, String type) {
    ObjectNode worker = JSON.objectNode();
    worker.put("id", id);
    worker.put("type", type);
    worker.put("role", type.equals("human") ? "reviewer" : "assistant");
    worker.putObject("authority_scope").putArray("grants").add("grant:work-session");
    worker.putObject("accountability_scope").putArray("accountable_for").add("work-session");
    return worker;
  }

  /** An Actor for a Worker, allowed to append events, valid from {@code createdAt}. */
  public static ObjectNode actor(String id, String workerId, String type, String createdAt) {
    ObjectNode actor = JSON.objectNode();
    actor.put("id", id);
    actor.put("worker_id", workerId);
    actor.put("type", type);
    actor.putObject("event_authority").put("can_append_events", true);
    actor.putObject("contribution_scope").putArray("contribution_roles").add(type);
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
    ObjectNode session = JSON.objectNode();
    session.put("id", id);
    session.put("protocol_version", JarvisSpec.PROTOCOL_VERSION);
    session.put("created_by_actor_id", createdByActorId);
    session.put("objective", "Check the protocol behaviour of a Jarvis host.");
    session.put("human_worker_id", humanWorkerId);
    session.put("agent_worker_id", agentWorkerId);
    session.put("policy_id", policyId);
    session.put("status", "active");
    session.put("revision", 0);
    session.put("last_event_hash", Sha256Hash.GENESIS);
    session.put("event_log_ref", "event-log:" + id);
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
    ObjectNode decision = JSON.objectNode();
    decision.put("id", id);
    decision.put("work_session_id", workSessionId);
    decision.put("actor_id", actorId);
    decision.put("policy_id", policyId);
    ObjectNode action = decision.putObject("requested_action");
    action.put("action", "read_source");
    action.put("target_ref", "source:conformance");
    decision.put("normalized_action_hash", ActionHash.of(action));
    decision.put("risk_class", "low");
    decision.put("result", "allow");
    decision.put("reason", "Reading a public source is within policy.");
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
    ObjectNode contribution = JSON.objectNode();
    contribution.put("id", id);
    contribution.put("work_session_id", workSessionId);
    ObjectNode ref = contribution.putArray("contributor_refs").addObject();
    ref.put("worker_id", workerId);
    ref.put("actor_id", actorId);
    ref.put("contribution_role", "agent");
    contribution.put("contributor_type", "agent");
    contribution.put("contribution_type", "execution");
    contribution.putArray("event_refs").add(eventId);
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
    ObjectNode event = JSON.objectNode();
    event.put("id", id);
    event.put("type", type);
    event.put("work_session_id", workSessionId);
    event.put("actor_id", actorId);
    event.put("timestamp", timestamp);
    ObjectNode payload = event.putObject("payload");
    payload.put("object_type", "work_session");
    payload.put("object_id", workSessionId);
    payload.put("action", type.substring(type.indexOf('.') + 1));
    return event;
  }
}
