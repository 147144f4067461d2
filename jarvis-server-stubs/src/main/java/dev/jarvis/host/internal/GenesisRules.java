package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.RecordStore;
import dev.jarvis.model.ProtocolErrorId;

/**
 * createWorkSession: the Policy must be one the host holds, unless it has a default Policy ({@code
 * missing_policy}); the human and agent Workers must be registered Workers of those types ({@code
 * unknown_state}).
 */
final class GenesisRules implements SessionMutations.GenesisRule {

  private final RecordStore records;
  private final boolean hasDefaultPolicy;

  GenesisRules(RecordStore records, boolean hasDefaultPolicy) {
    this.records = records;
    this.hasDefaultPolicy = hasDefaultPolicy;
  }

  @Override
  public void check(ProtocolCall call) {
    JsonNode session = call.body();
    String policyId = session.path("policy_id").asText();
    if (records.find(RecordKind.POLICY, policyId).isEmpty() && !hasDefaultPolicy) {
      throw refuse(
          ProtocolErrorId.MISSING_POLICY,
          "work_session",
          "/policy_id",
          "This host holds no Policy " + policyId + ".");
    }
    requireWorker(session, "human_worker_id", "human");
    requireWorker(session, "agent_worker_id", "agent");
  }

  private void requireWorker(JsonNode session, String field, String type) {
    String id = session.path(field).asText();
    boolean ok =
        records
            .body(RecordKind.WORKER, id)
            .filter(w -> type.equals(w.path("type").asText()))
            .isPresent();
    if (!ok) {
      throw refuse(
          ProtocolErrorId.UNKNOWN_STATE,
          "work_session",
          "/" + field,
          "No registered " + type + " Worker " + id + ".");
    }
  }
}
