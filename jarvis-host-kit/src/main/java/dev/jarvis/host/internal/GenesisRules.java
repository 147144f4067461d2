package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.ProtocolRefusal;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.RecordStore;
import dev.jarvis.host.WorkSessionGovernance;
import dev.jarvis.host.WorkSessionStore;
import dev.jarvis.model.Actor;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.Policy;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.WorkSession;
import dev.jarvis.model.Worker;
import dev.jarvis.model.WorkerType;
import java.util.Optional;

/**
 * createWorkSession, and who governs the WorkSession it opens. In order:
 *
 * <ol>
 *   <li>the human and agent Workers are registered Workers of those types ({@code unknown_state});
 *   <li>its creator is one of its members ({@link Membership}, {@code unauthorized_actor});
 *   <li>its creator is the human's own: a human Actor of its {@code human_worker_id}, or an Actor
 *       of its agent Worker that the host's {@link WorkSessionGovernance} lets serve that human
 *       ({@code unauthorized_actor}); an agent does not choose whom it works for;
 *   <li>its Policy governs its human Worker: the Policy the WorkSession would be held to (the one
 *       of its {@code policy_id}, else the host's default) is owned by that Worker or assigned to
 *       it by the host's configuration ({@link dev.jarvis.core.policy.PolicyAssignments});
 *       otherwise {@code missing_policy}, one answer whether the host holds no such Policy or holds
 *       it for someone else, so that no caller learns another owner's Policies; an agent does not
 *       choose the Policy it is judged by;
 *   <li>its human Worker has an Actor able to answer a Request now ({@link
 *       ActorAuthority#hasReviewer}, {@code unknown_state}): no WorkSession waits on a human no one
 *       can answer for;
 *   <li>the id is free ({@link #taken}), and the creator is below its open WorkSessions limit
 *       ({@link PrincipalLimitRules}).
 * </ol>
 *
 * <p>The third rule comes before the fourth and fifth, so that an agent not serving a human learns
 * nothing of that human's Policies or Actors (docs/protocol-decisions.md, "Who governs a
 * WorkSession").
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
  private final Optional<JsonNode> defaultPolicy;
  private final WorkSessionGovernance governance;
  private final ActorAuthority authority;

  GenesisRules(
      HostConfig config, Membership membership, PrincipalLimitRules limits, ProtocolRules rules) {
    this.records = config.stores().records();
    this.sessions = config.stores().sessions();
    this.membership = membership;
    this.limits = limits;
    this.defaultPolicy = config.defaultPolicy();
    this.governance = config.governance();
    this.authority = new ActorAuthority(config, records, rules);
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
    JsonNode human = requireWorker(session, "human_worker_id", WorkerType.HUMAN, reads);
    requireWorker(session, "agent_worker_id", WorkerType.AGENT, reads);
    membership.check(session, call.actorId(), reads);
    String humanWorkerId = session.path(WorkSession.JSON_PROPERTY_HUMAN_WORKER_ID).asText();
    JsonNode creator = reads.body(RecordKind.ACTOR, call.actorId()).orElseThrow();
    requireServing(session, creator, humanWorkerId);
    requireGoverningPolicy(session, humanWorkerId, reads);
    if (!authority.hasReviewer(humanWorkerId, human, creator)) {
      throw refuse(
          ProtocolErrorId.UNKNOWN_STATE,
          "work_session",
          "/human_worker_id",
          "No Actor of human Worker "
              + humanWorkerId
              + " can answer a Request now: a WorkSession waits on a human someone can answer"
              + " for.",
          "Name a human Worker with a registered human Actor that is valid now and may append"
              + " review.recorded, or ask the operator to register one.");
    }
    String id = session.path(WorkSession.JSON_PROPERTY_ID).asText();
    if (sessions.find(id).isPresent()) {
      throw taken(id);
    }
    limits.checkCreator(call.actorId());
  }

  /**
   * The creator is the human's own human Actor, or an Actor of the WorkSession's agent Worker that
   * the host's configuration lets serve that human.
   */
  private void requireServing(JsonNode session, JsonNode creator, String humanWorkerId) {
    String creatorWorker = creator.path(Actor.JSON_PROPERTY_WORKER_ID).asText();
    if (creatorWorker.equals(humanWorkerId)
        && Membership.typeOf(creator).filter(ActorType.HUMAN::equals).isPresent()) {
      return;
    }
    String agentWorkerId = session.path(WorkSession.JSON_PROPERTY_AGENT_WORKER_ID).asText();
    if (!creatorWorker.equals(agentWorkerId) || !governance.serves(agentWorkerId, humanWorkerId)) {
      throw refuse(
          ProtocolErrorId.UNAUTHORIZED_ACTOR,
          "header",
          JarvisHeaders.ACTOR_ID,
          "Only a human Actor of the WorkSession's human Worker, or an Actor of an agent Worker"
              + " the host serves that human with, opens a WorkSession for it.",
          "Have the human open the WorkSession, or ask the operator to let this agent Worker serve"
              + " that human (serve --agent-serves AGENT_WORKER=HUMAN_WORKER, docs/host.md \"Who"
              + " governs a WorkSession\").");
    }
  }

  /**
   * The Policy the WorkSession would be held to governs its human Worker; one refusal for a Policy
   * the host does not hold and one it holds for someone else.
   */
  private void requireGoverningPolicy(JsonNode session, String humanWorkerId, CallRecords reads) {
    String policyId = session.path(WorkSession.JSON_PROPERTY_POLICY_ID).asText();
    Optional<JsonNode> policy = reads.body(RecordKind.POLICY, policyId).or(() -> defaultPolicy);
    if (policy.filter(p -> governs(governance, p, humanWorkerId)).isEmpty()) {
      throw refuse(
          ProtocolErrorId.MISSING_POLICY,
          "work_session",
          "/policy_id",
          "This host holds no Policy "
              + policyId
              + " governing human Worker "
              + humanWorkerId
              + ".",
          "Reference an existing Policy by policy_id that governs the WorkSession's human Worker:"
              + " one it owns (owner_worker_id), or one the operator assigns to it (docs/host.md"
              + " \"Who governs a WorkSession\").");
    }
  }

  /** Whether the Policy record {@code policy} governs {@code humanWorkerId} under {@code g}. */
  static boolean governs(WorkSessionGovernance g, JsonNode policy, String humanWorkerId) {
    return g.policies()
        .governs(
            policy.path(Policy.JSON_PROPERTY_ID).asText(),
            policy.path(Policy.JSON_PROPERTY_OWNER_WORKER_ID).asText(),
            humanWorkerId);
  }

  /** The registered Worker of {@code type} the field names. */
  private static JsonNode requireWorker(
      JsonNode session, String field, WorkerType type, CallRecords reads) {
    String id = session.path(field).asText();
    return reads
        .body(RecordKind.WORKER, id)
        .filter(w -> type.getValue().equals(w.path(Worker.JSON_PROPERTY_TYPE).asText()))
        .orElseThrow(
            () ->
                refuse(
                    ProtocolErrorId.UNKNOWN_STATE,
                    "work_session",
                    "/" + field,
                    "No registered " + type.getValue() + " Worker " + id + "."));
  }
}
