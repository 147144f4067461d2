package dev.jarvis.host.reference;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.hash.ActionHash;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Valid protocol records for the tests, as JSON trees to adjust. */
final class Payloads {

  static final String WS = "ws-protocol-001";
  static final String HUMAN_WORKER = "worker-human-001";
  static final String HUMAN = "actor-human-001";
  static final String AGENT_WORKER = "worker-agent-001";
  static final String AGENT = "actor-agent-001";
  static final String POLICY = "policy-bounded-001";
  static final String T0 = "2026-06-12T18:00:00Z";

  private Payloads() {}

  static ObjectNode json(String text) {
    try {
      return (ObjectNode) JarvisJson.mapper().readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static ObjectNode worker(String id, String type) {
    return json(
        """
        {"id": "%s", "type": "%s", "role": "collaborator",
         "authority_scope": {"grants": ["work"]},
         "accountability_scope": {"accountable_for": ["outcome"]}}
        """
            .formatted(id, type));
  }

  static ObjectNode actor(String id, String workerId, String type, boolean canAppend) {
    return json(
        """
        {"id": "%s", "worker_id": "%s", "type": "%s",
         "event_authority": {"can_append_events": %s},
         "contribution_scope": {"contribution_roles": ["%s"]},
         "created_at": "2026-06-12T17:00:00Z"}
        """
            .formatted(id, workerId, type, canAppend, type.equals("human") ? "human" : "agent"));
  }

  /** The sample Policy the reference host holds (and the demo runs under). */
  static ObjectNode policy() {
    return dev.jarvis.samples.SampleRecords.policy();
  }

  static ObjectNode workSession(String id) {
    return json(
        """
        {"id": "%s", "protocol_version": "v0.1", "created_by_actor_id": "actor-human-001",
         "objective": "Produce a reviewed evidence-backed answer under bounded policy.",
         "human_worker_id": "worker-human-001", "agent_worker_id": "worker-agent-001",
         "policy_id": "policy-bounded-001", "status": "active", "revision": 0,
         "last_event_hash": "hash:protocol-genesis", "event_log_ref": "event-log:client",
         "created_at": "2026-06-12T18:00:00Z", "updated_at": "2026-06-12T18:00:00Z"}
        """
            .formatted(id));
  }

  static ObjectNode action(String name) {
    return json(
        """
        {"action": "%s", "target_ref": "source:external-reference", "scope_ref": "scope:source-collection"}
        """
            .formatted(name));
  }

  static ObjectNode decision(String id, String action, String result) {
    ObjectNode d =
        json(
            """
            {"id": "%s", "work_session_id": "ws-protocol-001", "actor_id": "actor-agent-001",
             "policy_id": "policy-bounded-001", "risk_class": "medium", "result": "%s",
             "reason": "Checked against the bounded policy.", "created_at": "2026-06-12T18:05:00Z"}
            """
                .formatted(id, result));
    d.set("requested_action", action(action));
    d.put("normalized_action_hash", ActionHash.of(action(action)));
    if (!result.equals("allow") && !result.equals("narrow")) {
      d.put("request_id", "req-" + id);
    }
    return d;
  }

  static ObjectNode request(String id, String decisionId, String action) {
    ObjectNode r =
        json(
            """
            {"id": "%s", "protocol_version": "v0.1", "work_session_id": "ws-protocol-001",
             "requester_actor_id": "actor-agent-001", "requester_worker_id": "worker-agent-001",
             "target_human_worker_id": "worker-human-001", "policy_decision_id": "%s",
             "type": "permission", "blocking_scope": "action", "reason_code": "policy_denied",
             "reason_summary": "External source access is outside current policy.",
             "requested_outcome": "Allow source collection for the current WorkSession only.",
             "risk_class": "medium",
             "human_decision_needed": "Approve, narrow, deny, correct, or take over.",
             "options": [{"id": "option-approve", "label": "Approve", "effect": "Collect the source."}],
             "default_if_no_response": {"action": "continue_with_limited_evidence",
               "reason": "The blocked action stays stopped."},
             "status": "pending", "created_at": "2026-06-12T18:06:00Z",
             "expires_at": "2026-06-12T18:36:00Z"}
            """
                .formatted(id, decisionId));
    r.set("requested_action", action(action));
    return r;
  }

  static ObjectNode review(String id, String requestId, String decision) {
    return json(
        """
        {"id": "%s", "work_session_id": "ws-protocol-001", "reviewer_actor_id": "actor-human-001",
         "reviewer_worker_id": "worker-human-001", "target_ref": "request:%s",
         "decision": "%s", "created_at": "2026-06-12T18:08:00Z"}
        """
            .formatted(id, requestId, decision));
  }

  static ObjectNode approvalScope(
      String requestId, String reviewId, String decisionId, long revision, String eventHash) {
    ObjectNode scope =
        json(
            """
            {"request_id": "%s", "review_id": "%s", "policy_decision_id": "%s",
             "request_revision": %d, "request_event_hash": "%s",
             "allowed_scope": {"scope_ref": "scope:source-collection"},
             "denied_scope": {"scope_ref": "scope:any-other-external-source"},
             "expires_at": "2026-06-12T18:36:00Z", "max_uses": 1,
             "applies_to_work_session_id": "ws-protocol-001", "applies_to_actor_id": "actor-agent-001"}
            """
                .formatted(requestId, reviewId, decisionId, revision, eventHash));
    scope.set("approved_action", action("fetch_external_source"));
    scope.put("normalized_action_hash", ActionHash.of(action("fetch_external_source")));
    return scope;
  }

  static ObjectNode takeover(String id, String state, long epoch) {
    return json(
        """
        {"id": "%s", "work_session_id": "ws-protocol-001", "requested_by_actor_id": "actor-human-001",
         "controlling_actor_id": "actor-human-001",
         "affected_scope": {"blocking_scope": "branch", "scope_ref": "scope:branch-1"},
         "reason": "The human steers this branch.", "lock_epoch": %d, "state": "%s",
         "created_at": "2026-06-12T18:09:00Z"}
        """
            .formatted(id, epoch, state));
  }

  static ObjectNode contribution(String id, String eventId) {
    return json(
        """
        {"id": "%s", "work_session_id": "ws-protocol-001",
         "contributor_refs": [{"worker_id": "worker-human-001", "actor_id": "actor-human-001",
           "contribution_role": "human"}],
         "contributor_type": "human", "contribution_type": "review",
         "event_refs": ["%s"], "created_at": "2026-06-12T18:10:00Z"}
        """
            .formatted(id, eventId));
  }

  static ObjectNode learningRecord(String id, String eventId, String actorId) {
    return json(
        """
        {"id": "%s", "work_session_id": "ws-protocol-001", "created_by_actor_id": "%s",
         "subject_type": "pair", "subject_ref": "pair:human-agent", "lesson_type": "process",
         "source_event_refs": ["%s"], "review_state": "proposed", "scope": "scope:project",
         "created_at": "2026-06-12T18:11:00Z"}
        """
            .formatted(id, actorId, eventId));
  }

  static ObjectNode memoryProposal(String id, String actorId, String status) {
    return json(
        """
        {"id": "%s", "work_session_id": "ws-protocol-001", "proposed_by_actor_id": "%s",
         "proposed_for": "agent", "memory_scope": "scope:project", "memory_type": "preference",
         "content": "Prefer primary sources.", "provenance": ["event:1"], "confidence": 0.8,
         "review_required": true, "status": "%s", "created_at": "2026-06-12T18:12:00Z"}
        """
            .formatted(id, actorId, status));
  }

  static ObjectNode skillProposal(String id, String actorId, String status) {
    return json(
        """
        {"id": "%s", "work_session_id": "ws-protocol-001", "proposed_by_actor_id": "%s",
         "proposed_for": "agent", "skill_scope": "scope:project", "skill_name": "source-check",
         "trigger_conditions": ["new source"], "procedure": ["check the source"],
         "review_checks": ["human reads it"], "failure_cases": ["source unreachable"],
         "provenance": ["event:1"], "status": "%s", "created_at": "2026-06-12T18:13:00Z"}
        """
            .formatted(id, actorId, status));
  }

  static ObjectNode outcomeReport(String id, String learningRecordId) {
    return json(
        """
        {"id": "%s", "work_session_id": "ws-protocol-001", "source_ref": "source:customer",
         "reporter_ref": "reporter:customer-1", "accepted_by_actor_id": "actor-human-001",
         "outcome": "The answer held up.", "learning_record_refs": ["%s"],
         "received_at": "2026-06-12T18:30:00Z"}
        """
            .formatted(id, learningRecordId));
  }

  static ObjectNode event(String id, String type, String actorId) {
    return json(
        """
        {"id": "%s", "type": "%s", "work_session_id": "ws-protocol-001", "actor_id": "%s",
         "timestamp": "2026-06-12T18:15:00Z",
         "payload": {"object_type": "work_session", "object_id": "ws-protocol-001", "action": "%s"}}
        """
            .formatted(id, type, actorId, type.substring(type.indexOf('.') + 1)));
  }
}
