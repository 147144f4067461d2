package dev.jarvis.conformance;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.model.Policy;
import dev.jarvis.samples.SampleRecords;
import java.io.IOException;
import java.io.UncheckedIOException;

/** Policies unlike the SDK's sample one, as host teams hold them, for the suite to read. */
final class Policies {

  /**
   * The Policy of a team that collects sources: fetching an external source is allowed in its
   * collection scope only, publishing an answer needs review; no rule denies anything, no risk is
   * escalated.
   */
  static final String SOURCE_COLLECTION =
      """
      {"id": "policy-source-collection", "owner_worker_id": "worker-team-lead",
       "created_by_actor_id": "actor-team-lead", "autonomy_level": "bounded_execute",
       "allowed_actions": [{"action": "fetch_external_source", "scope_ref": "scope:source-collection"}],
       "denied_actions": [],
       "review_required_actions": [{"action": "publish_answer"}],
       "risk_classes": ["low", "medium", "high"], "escalation_rules": [],
       "created_at": "2026-01-01T00:00:00Z"}
      """;

  /** A Policy whose autonomy level puts every action under review: nothing is allowed outright. */
  static final String EVERYTHING_REVIEWED =
      """
      {"id": "policy-everything-reviewed", "owner_worker_id": "worker-team-lead",
       "created_by_actor_id": "actor-team-lead", "autonomy_level": "execute_with_review",
       "allowed_actions": [{"action": "summarize"}, {"action": "read_source"}],
       "denied_actions": [{"action": "delete_repository"}], "review_required_actions": [],
       "risk_classes": ["low", "medium"], "escalation_rules": [],
       "created_at": "2026-01-01T00:00:00Z"}
      """;

  private Policies() {}

  static ObjectNode json(String policy) {
    try {
      return (ObjectNode) JarvisJson.mapper().readTree(policy);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static Policy read(String policy) {
    return JarvisJson.mapper().convertValue(json(policy), Policy.class);
  }

  /** The sample Policy under another id, owned by another human Worker: foreign to the suite's. */
  static ObjectNode foreign(String id) {
    ObjectNode foreign = SampleRecords.policy();
    foreign.put("id", id);
    foreign.put("owner_worker_id", "worker-someone-else");
    return foreign;
  }
}
