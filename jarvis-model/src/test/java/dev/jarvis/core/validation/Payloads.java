package dev.jarvis.core.validation;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.JarvisSpec;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Valid payloads of each protocol record, to break one rule at a time: the spec's examples where it
 * has one, hand-written minimal records otherwise.
 */
final class Payloads {

  private static final JsonNode EXAMPLES = JarvisSpec.tree().path("components").path("examples");

  private static final Map<String, String> MINIMAL =
      Map.ofEntries(
          Map.entry(
              "Worker",
              """
              {"id": "worker-human-001", "type": "human", "role": "reviewer",
               "authority_scope": {"grants": ["grant:review"]},
               "accountability_scope": {"accountable_for": ["scope:answers"]},
               "extensions": {"acme.review-hint": {"tone": "brief"}}}
              """),
          Map.entry(
              "Actor",
              """
              {"id": "actor-human-001", "worker_id": "worker-human-001", "type": "human",
               "event_authority": {"can_append_events": true},
               "contribution_scope": {"contribution_roles": ["human"]},
               "created_at": "2026-06-12T18:00:00Z"}
              """),
          Map.entry(
              "HumanWorker",
              """
              {"worker_id": "worker-human-001", "actor_id": "actor-human-001", "role": "reviewer",
               "policy_authority": {"grants": ["grant:policy"]},
               "review_authority": {"grants": ["grant:review"]},
               "preferences": {"answer_length": "short", "units": {"distance": "km"}}}
              """),
          Map.entry(
              "AgentWorker",
              """
              {"worker_id": "worker-agent-001", "actor_id": "actor-agent-001",
               "agent_ref": "agent:research", "role": "researcher",
               "capability_refs": [{"ref": "capability:search"}],
               "autonomy_level": "propose_only", "operating_constraints": ["no external send"]}
              """),
          Map.entry(
              "JarvisEvent",
              """
              {"id": "event-001", "sequence": 1, "type": "work_session.created",
               "work_session_id": "ws-protocol-001", "actor_id": "actor-human-001",
               "timestamp": "2026-06-12T18:00:00Z",
               "payload": {"object_type": "work_session", "action": "created"},
               "previous_hash": "hash:protocol-genesis", "event_hash": "hash:event-001",
               "canonicalization": {"serialization": "json-c14n", "hash_method": "sha256"}}
              """),
          Map.entry(
              "Takeover",
              """
              {"id": "takeover-001", "work_session_id": "ws-protocol-001",
               "requested_by_actor_id": "actor-human-001",
               "controlling_actor_id": "actor-human-001",
               "affected_scope": {"blocking_scope": "action", "scope_ref": "scope:source-collection"},
               "reason": "Human takes over source collection.", "lock_epoch": 1,
               "state": "locked", "created_at": "2026-06-12T18:10:00Z"}
              """),
          Map.entry(
              "Contribution",
              """
              {"id": "contribution-001", "work_session_id": "ws-protocol-001",
               "contributor_refs": [
                 {"worker_id": "worker-human-001", "actor_id": "actor-human-001",
                  "contribution_role": "human"}],
               "contributor_type": "human", "contribution_type": "review",
               "event_refs": ["event-001"], "created_at": "2026-06-12T18:12:00Z"}
              """),
          Map.entry(
              "LearningRecord",
              """
              {"id": "learning-001", "work_session_id": "ws-protocol-001",
               "created_by_actor_id": "actor-human-001", "subject_type": "pair",
               "subject_ref": "pair:human-agent", "lesson_type": "source_quality",
               "source_event_refs": ["event-001"], "review_state": "proposed",
               "scope": "scope:project", "created_at": "2026-06-12T18:15:00Z",
               "proposed_change": {"prefer_sources": ["primary"], "max_age_days": 30}}
              """),
          Map.entry(
              "MemoryProposal",
              """
              {"id": "memory-001", "work_session_id": "ws-protocol-001",
               "proposed_by_actor_id": "actor-agent-001", "proposed_for": "project",
               "memory_scope": "scope:project", "memory_type": "preference",
               "content": {"summary": "Prefer primary sources."},
               "provenance": ["event-001"], "confidence": 0.8, "review_required": true,
               "status": "proposed", "created_at": "2026-06-12T18:16:00Z"}
              """),
          Map.entry(
              "SkillProposal",
              """
              {"id": "skill-001", "work_session_id": "ws-protocol-001",
               "proposed_by_actor_id": "actor-agent-001", "proposed_for": "agent",
               "skill_scope": "scope:research", "skill_name": "source triage",
               "trigger_conditions": ["new source"], "procedure": ["rank by primacy"],
               "review_checks": ["human spot check"], "failure_cases": ["paywalled source"],
               "provenance": ["event-001"], "status": "proposed",
               "created_at": "2026-06-12T18:17:00Z"}
              """),
          Map.entry(
              "OutcomeReport",
              """
              {"id": "outcome-001", "work_session_id": "ws-protocol-001",
               "source_ref": "source:client-feedback", "reporter_ref": "reporter:client",
               "accepted_by_actor_id": "actor-human-001", "outcome": "accepted",
               "learning_record_refs": ["learning-001"], "received_at": "2026-06-13T09:00:00Z"}
              """),
          Map.entry(
              "Policy",
              """
              {"id": "policy-bounded-001", "owner_worker_id": "worker-human-001",
               "created_by_actor_id": "actor-human-001", "autonomy_level": "propose_only",
               "allowed_actions": [{"action": "read_internal_source"}],
               "denied_actions": [{"action": "send_external"}],
               "review_required_actions": [{"action": "fetch_external_source"}],
               "risk_classes": ["low", "medium"], "escalation_rules": [],
               "created_at": "2026-06-12T17:55:00Z"}
              """));

  private static final Map<String, String> EXAMPLE_OF =
      Map.of(
          "WorkSession", "WorkSessionCreateExample",
          "PolicyDecision", "PolicyDecisionDeniedExample",
          "Request", "RequestBlockedActionExample",
          "Review", "ReviewApproveRequestExample",
          "EvidenceManifest", "EvidenceManifestExportExample",
          "ProtocolError", "ProtocolErrorExample");

  private Payloads() {}

  /** The schemas {@link #valid} has a payload for, sorted. */
  static java.util.SortedSet<String> schemas() {
    java.util.SortedSet<String> out = new java.util.TreeSet<>(MINIMAL.keySet());
    out.addAll(EXAMPLE_OF.keySet());
    return out;
  }

  /** A fresh, valid payload of the schema. */
  static ObjectNode valid(String schema) {
    if (EXAMPLE_OF.containsKey(schema)) {
      return (ObjectNode) EXAMPLES.path(EXAMPLE_OF.get(schema)).path("value").deepCopy();
    }
    String json = MINIMAL.get(schema);
    if (json == null) {
      throw new IllegalArgumentException("no fixture for " + schema);
    }
    try {
      return (ObjectNode) JarvisJson.mapper().readTree(json);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A valid payload of the schema with one change, as JSON text. */
  static String edited(String schema, Consumer<ObjectNode> change) {
    ObjectNode node = valid(schema);
    change.accept(node);
    return node.toString();
  }

  static ObjectNode object(ObjectNode parent, String field) {
    return (ObjectNode) parent.get(field);
  }

  static ArrayNode array(ObjectNode parent, String field) {
    return (ArrayNode) parent.get(field);
  }

  static ArrayNode strings(String... values) {
    ArrayNode array = JarvisJson.mapper().createArrayNode();
    for (String v : values) {
      array.add(v);
    }
    return array;
  }
}
