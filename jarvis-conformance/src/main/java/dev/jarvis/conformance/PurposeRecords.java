package dev.jarvis.conformance;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.hash.ActionHash;
import java.time.Instant;

/**
 * The control-plane records the purpose checks send: Requests, Reviews, ApprovalScopes, Takeovers.
 */
final class PurposeRecords {

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private PurposeRecords() {}

  static ObjectNode action(String name) {
    ObjectNode action = JSON.objectNode();
    action.put("action", name);
    action.put("target_ref", "source:conformance");
    action.put("scope_ref", "scope:conformance");
    return action;
  }

  /** A {@code review_required} decision of the agent for {@code action}, naming its Request. */
  static ObjectNode reviewRequired(
      LiveHost live, String session, String decisionId, String action, String requestId) {
    ObjectNode decision = live.decision(session, live.agent);
    decision.put("id", decisionId);
    decision.set("requested_action", action(action));
    decision.put("normalized_action_hash", ActionHash.of(action(action)));
    decision.put("result", "review_required");
    decision.put("risk_class", "medium");
    decision.put("request_id", requestId);
    return decision;
  }

  /**
   * A pending permission Request of the agent to {@code targetWorker}, expiring at {@code expires}.
   */
  static ObjectNode request(
      LiveHost live,
      String session,
      String id,
      String decisionId,
      String action,
      String targetWorker,
      Instant expires) {
    ObjectNode r = JSON.objectNode();
    r.put("id", id);
    r.put("protocol_version", "v0.1");
    r.put("work_session_id", session);
    r.put("requester_actor_id", live.agent);
    r.put("requester_worker_id", live.agentWorker);
    r.put("target_human_worker_id", targetWorker);
    r.put("policy_decision_id", decisionId);
    r.put("type", "permission");
    r.put("blocking_scope", "action");
    r.put("reason_code", "review_required");
    r.put("reason_summary", "The action needs a human's review.");
    r.set("requested_action", action(action));
    r.put("requested_outcome", "Allow the action once.");
    r.put("risk_class", "medium");
    r.put("human_decision_needed", "Approve or deny.");
    ObjectNode option = r.putArray("options").addObject();
    option.put("id", "option-approve");
    option.put("label", "Approve");
    option.put("effect", "The action runs once.");
    ObjectNode fallback = r.putObject("default_if_no_response");
    fallback.put("action", "keep_blocked_scope_stopped");
    fallback.put("reason", "Nothing runs without a human.");
    r.put("status", "pending");
    r.put("created_at", live.now());
    r.put("expires_at", dev.jarvis.core.headers.RequestTimestamp.format(expires));
    return r;
  }

  static ObjectNode review(
      LiveHost live,
      String session,
      String id,
      String actor,
      String worker,
      String target,
      String decision) {
    ObjectNode r = JSON.objectNode();
    r.put("id", id);
    r.put("work_session_id", session);
    r.put("reviewer_actor_id", actor);
    r.put("reviewer_worker_id", worker);
    r.put("target_ref", target);
    r.put("decision", decision);
    r.put("created_at", live.now());
    return r;
  }

  /**
   * An ApprovalScope approving {@code action} once for the agent, bound to the Request as recorded.
   */
  static ObjectNode scope(
      LiveHost live,
      String session,
      String requestId,
      String reviewId,
      String decisionId,
      ChainCursor recordedAt,
      String action,
      Instant expires) {
    ObjectNode s = JSON.objectNode();
    s.put("request_id", requestId);
    s.put("review_id", reviewId);
    s.put("policy_decision_id", decisionId);
    s.put("request_revision", recordedAt.revision());
    s.put("request_event_hash", recordedAt.lastEventHash());
    s.set("approved_action", action(action));
    s.put("normalized_action_hash", ActionHash.of(action(action)));
    s.putObject("allowed_scope").put("scope_ref", "scope:conformance");
    s.putObject("denied_scope").put("scope_ref", "scope:anything-else");
    s.put("expires_at", dev.jarvis.core.headers.RequestTimestamp.format(expires));
    s.put("max_uses", 1);
    s.put("applies_to_work_session_id", session);
    s.put("applies_to_actor_id", live.agent);
    return s;
  }

  static ObjectNode takeover(
      LiveHost live, String session, String id, String scopeRef, String state) {
    ObjectNode t = JSON.objectNode();
    t.put("id", id);
    t.put("work_session_id", session);
    t.put("requested_by_actor_id", live.human);
    t.put("controlling_actor_id", live.human);
    ObjectNode scope = t.putObject("affected_scope");
    scope.put("blocking_scope", "branch");
    scope.put("scope_ref", scopeRef);
    t.put("reason", "The human steers this branch.");
    t.put("lock_epoch", 1);
    t.put("state", state);
    t.put("created_at", live.now());
    if (state.equals("resumed")) {
      t.put("resumed_by_actor_id", live.human);
      t.put("resolved_at", live.now());
      t.putArray("reconciliation_refs").add("note:reconciled");
    }
    return t;
  }
}
