package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.RecordStore;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.WorkerType;

/**
 * createWorkSession: the Policy must be one the host holds, unless it has a default Policy ({@code
 * missing_policy}); the human and agent Workers must be registered Workers of those types ({@code
 * unknown_state}); its creator is one of its members ({@link Membership}, {@code
 * unauthorized_actor}).
 */
final class GenesisRules implements SessionMutations.GenesisRule {

  private final RecordStore records;
  private final Membership membership;
  private final boolean hasDefaultPolicy;

  GenesisRules(RecordStore records, Membership membership, boolean hasDefaultPolicy) {
    this.records = records;
    this.membership = membership;
    this.hasDefaultPolicy = hasDefaultPolicy;
  }

  @Override
  public void check(ProtocolCall call) {
    JsonNode session = call.body();
    CallRecords reads = new CallRecords(records, call);
    String policyId = session.path("policy_id").asText();
    if (reads.body(RecordKind.POLICY, policyId).isEmpty() && !hasDefaultPolicy) {
      throw refuse(
          ProtocolErrorId.MISSING_POLICY,
          "work_session",
          "/policy_id",
          "This host holds no Policy " + policyId + ".");
    }
    requireWorker(session, "human_worker_id", WorkerType.HUMAN, reads);
    requireWorker(session, "agent_worker_id", WorkerType.AGENT, reads);
    membership.check(session, call.actorId(), reads);
  }

  private static void requireWorker(
      JsonNode session, String field, WorkerType type, CallRecords reads) {
    String id = session.path(field).asText();
    boolean ok =
        reads
            .body(RecordKind.WORKER, id)
            .filter(w -> type.getValue().equals(w.path("type").asText()))
            .isPresent();
    if (!ok) {
      throw refuse(
          ProtocolErrorId.UNKNOWN_STATE,
          "work_session",
          "/" + field,
          "No registered " + type.getValue() + " Worker " + id + ".");
    }
  }
}
