package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.ProtocolRefusal;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.RecordStore;
import dev.jarvis.host.WorkSessionStore;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.WorkSession;
import dev.jarvis.model.Worker;
import dev.jarvis.model.WorkerType;

/**
 * createWorkSession: the Policy must be one the host holds, unless it has a default Policy ({@code
 * missing_policy}); the human and agent Workers must be registered Workers of those types ({@code
 * unknown_state}); its creator is one of its members ({@link Membership}, {@code
 * unauthorized_actor}); the id must be free ({@link #taken}); and the creator must be below its
 * open WorkSessions limit ({@link PrincipalLimitRules}).
 *
 * <p>A taken id is checked last, after every rule about the caller's own body, so only a caller who
 * could create that WorkSession learns that its id is unavailable, and then nothing more: {@link
 * #taken} is one answer for every caller, member of the existing WorkSession or not, and names
 * neither its revision nor its state. Ids are host-wide and chosen by the client, so that the id is
 * unavailable cannot be hidden; clients pick unguessable ids ({@code client.records()} does). A
 * member's idempotent retry is not refused by it: {@link IdempotentExecution} answers any refusal
 * with the key's stored first response when there is one.
 */
final class GenesisRules implements SessionMutations.GenesisRule {

  private final RecordStore records;
  private final WorkSessionStore sessions;
  private final Membership membership;
  private final PrincipalLimitRules limits;
  private final boolean hasDefaultPolicy;

  GenesisRules(
      RecordStore records,
      WorkSessionStore sessions,
      Membership membership,
      PrincipalLimitRules limits,
      boolean hasDefaultPolicy) {
    this.records = records;
    this.sessions = sessions;
    this.membership = membership;
    this.limits = limits;
    this.hasDefaultPolicy = hasDefaultPolicy;
  }

  /** The one refusal of a taken WorkSession id, whoever asks. */
  static ProtocolRefusal taken(String id) {
    return refuse(
        ProtocolErrorId.STALE_WORK_SESSION_REVISION,
        "header",
        JarvisHeaders.EXPECTED_WORK_SESSION_REVISION,
        "The WorkSession id " + id + " is not available; create the WorkSession under another id.",
        "Create the WorkSession under another id: this one is not available.");
  }

  @Override
  public void check(ProtocolCall call) {
    JsonNode session = call.body();
    CallRecords reads = new CallRecords(records, call);
    String policyId = session.path(WorkSession.JSON_PROPERTY_POLICY_ID).asText();
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
    String id = session.path(WorkSession.JSON_PROPERTY_ID).asText();
    if (sessions.find(id).isPresent()) {
      throw taken(id);
    }
    limits.checkCreator(call.actorId());
  }

  private static void requireWorker(
      JsonNode session, String field, WorkerType type, CallRecords reads) {
    String id = session.path(field).asText();
    boolean ok =
        reads
            .body(RecordKind.WORKER, id)
            .filter(w -> type.getValue().equals(w.path(Worker.JSON_PROPERTY_TYPE).asText()))
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
