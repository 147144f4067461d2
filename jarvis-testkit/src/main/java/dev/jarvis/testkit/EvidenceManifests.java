package dev.jarvis.testkit;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * Builds the EvidenceManifest the stub host exports for a terminal WorkSession: one evidence item
 * for the event chain itself, and refs to every record accepted into the WorkSession.
 */
final class EvidenceManifests {

  private EvidenceManifests() {}

  static ObjectNode of(
      WorkSessionState session, String actor, String manifestId, String itemId, String now) {
    ObjectNode record = session.snapshot();
    JsonNodeFactory json = JsonNodeFactory.instance;
    ObjectNode manifest = json.objectNode();
    manifest.put("id", manifestId);
    manifest.put("work_session_id", session.id());
    manifest.put("generated_by_actor_id", actor);
    manifest.put("objective", record.path("objective").asText());
    manifest.put("event_chain_root", session.cursor().lastEventHash());
    ObjectNode item = manifest.putArray("evidence_item_refs").addObject();
    item.put("id", "evidence-" + itemId);
    item.put("work_session_id", session.id());
    ArrayNode sources = item.putArray("source_event_refs");
    session.events().forEach(e -> sources.add(e.path("id").asText()));
    item.put("captured_by_actor_id", actor);
    item.put("evidence_type", "event_chain");
    item.put("artifact_ref", record.path("event_log_ref").asText());
    item.put("content_hash", session.cursor().lastEventHash());
    item.put("trust_label", "host_recorded");
    item.put("redaction_state", "not_redacted");
    item.put("captured_at", now);
    item.putArray("limitation_refs");
    refs(manifest, "policy_decision_refs", session.recordIds("PolicyDecision"));
    refs(manifest, "request_refs", session.recordIds("Request"));
    refs(manifest, "review_refs", session.recordIds("Review"));
    refs(manifest, "takeover_refs", session.recordIds("Takeover"));
    refs(manifest, "contribution_refs", session.recordIds("Contribution"));
    manifest
        .putObject("export_profile")
        .put("profile", "portable_evidence_manifest")
        .put("version", "v0.1");
    manifest.put("generated_at", now);
    return manifest;
  }

  private static void refs(ObjectNode manifest, String field, List<String> ids) {
    ArrayNode array = manifest.putArray(field);
    ids.stream().distinct().forEach(array::add);
  }
}
