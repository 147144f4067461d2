package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.ID_TAKEN;
import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.hash.ActionHash;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.model.Policy;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.PolicyRequestLimits;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.Request;
import dev.jarvis.model.RequestStatus;
import dev.jarvis.model.WorkSession;
import dev.jarvis.model.WorkSessionStatus;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * createRequest: a Request is asked by the calling Actor's Worker ({@code requester_worker_id},
 * else {@code actor_body_id_mismatch}) of the WorkSession's human Worker ({@code
 * target_human_worker_id}, else {@code unknown_state}); it is created {@code pending} ({@code
 * invalid_request_transition}) with an {@code expires_at} still ahead of the host clock ({@code
 * invalid_request_transition}: it could never be reviewed) for a recorded PolicyDecision ({@code
 * missing_policy_decision}) about the same action ({@code approval_scope_mismatch}); an id is used
 * once and a decision leads to one open Request unless the new one says {@code
 * duplicate_of_request_id} ({@code duplicate_request_mismatch}). A Request naming an open one as
 * {@code duplicate_of_request_id} supersedes it (see {@link RequestLifecycle}); a duplicate of no
 * Request of this WorkSession is {@code duplicate_request_mismatch}, of a closed one {@code
 * invalid_request_transition}. The Policy's {@code request_limits} bound open Requests and repeated
 * denials ({@code request_livelock}); a superseded one no longer counts. The WorkSession then waits
 * on its human.
 */
final class RequestRule implements ScopedRule {

  static final String OBJECT = "request";

  private final Clock clock;
  private final PrincipalLimitRules targetLimits;

  RequestRule(Clock clock, PrincipalLimitRules limits) {
    this.clock = clock;
    this.targetLimits = limits;
  }

  @Override
  public Effect apply(ProtocolCall call, SessionView session) {
    JsonNode request = call.body();
    String id = request.path(Request.JSON_PROPERTY_ID).asText();
    Instant now = clock.instant();
    if (session.record(RecordKind.REQUEST, id).isPresent()) {
      throw refuse(
          ProtocolErrorId.DUPLICATE_REQUEST_MISMATCH,
          OBJECT,
          "/id",
          "Request " + id + " exists already.",
          ID_TAKEN);
    }
    checkParties(call, request, session);
    if (RequestLifecycle.status(request) != RequestStatus.PENDING) {
      throw refuse(
          ProtocolErrorId.INVALID_REQUEST_TRANSITION,
          OBJECT,
          "/status",
          "A Request is created pending; a Review or Takeover resolves it.",
          "Create the Request with status pending: only a Review or a Takeover moves it on.");
    }
    if (Timestamps.of(request.path(Request.JSON_PROPERTY_EXPIRES_AT))
        .filter(e -> e.isAfter(now))
        .isEmpty()) {
      throw refuse(
          ProtocolErrorId.INVALID_REQUEST_TRANSITION,
          OBJECT,
          "/expires_at",
          "The Request would be expired on arrival; no Review could ever resolve it.",
          "Set expires_at after the host's current time, leaving the human time to answer.");
    }
    String decisionId = request.path(Request.JSON_PROPERTY_POLICY_DECISION_ID).asText();
    JsonNode decision =
        session
            .record(RecordKind.POLICY_DECISION, decisionId)
            .map(StoredRecord::body)
            .orElseThrow(
                () ->
                    refuse(
                        ProtocolErrorId.MISSING_POLICY_DECISION,
                        OBJECT,
                        "/policy_decision_id",
                        "No PolicyDecision " + decisionId + " is recorded in this WorkSession."));
    String hash = ActionHash.of(request.path(Request.JSON_PROPERTY_REQUESTED_ACTION));
    if (!hash.equals(decision.path(PolicyDecision.JSON_PROPERTY_NORMALIZED_ACTION_HASH).asText())) {
      throw refuse(
          ProtocolErrorId.APPROVAL_SCOPE_MISMATCH,
          OBJECT,
          "/requested_action",
          "requested_action is not the action of PolicyDecision " + decisionId + ".");
    }
    Optional<StoredRecord> original = original(request, session);
    int open = 0;
    int denied = 0;
    for (StoredRecord stored : session.records(RecordKind.REQUEST)) {
      JsonNode other = stored.body();
      boolean supersededNow = original.filter(o -> o.id().equals(stored.id())).isPresent();
      if (RequestLifecycle.isOpen(stored) && !supersededNow) {
        open++;
        if (decisionId.equals(other.path(Request.JSON_PROPERTY_POLICY_DECISION_ID).asText())) {
          throw refuse(
              ProtocolErrorId.DUPLICATE_REQUEST_MISMATCH,
              OBJECT,
              "/policy_decision_id",
              "Request " + stored.id() + " is open for the same PolicyDecision.",
              "Wait for the open Request's Review, or replace it: name it in"
                  + " duplicate_of_request_id of the new Request.");
        }
      }
      if (RequestLifecycle.status(other) == RequestStatus.DENIED
          && hash.equals(ActionHash.of(other.path(Request.JSON_PROPERTY_REQUESTED_ACTION)))) {
        denied++;
      }
    }
    JsonNode limits =
        session.policy().map(p -> p.path(Policy.JSON_PROPERTY_REQUEST_LIMITS)).orElseThrow();
    if (limits.has(PolicyRequestLimits.JSON_PROPERTY_MAX_PENDING_REQUESTS)
        && open >= limits.path(PolicyRequestLimits.JSON_PROPERTY_MAX_PENDING_REQUESTS).asLong()) {
      throw refuse(
          ProtocolErrorId.REQUEST_LIVELOCK,
          OBJECT,
          "/id",
          open
              + " Requests are open; the Policy allows "
              + limits.path(PolicyRequestLimits.JSON_PROPERTY_MAX_PENDING_REQUESTS)
              + ".");
    }
    if (limits.has(PolicyRequestLimits.JSON_PROPERTY_MAX_REPEATED_DENIALS)
        && denied >= limits.path(PolicyRequestLimits.JSON_PROPERTY_MAX_REPEATED_DENIALS).asLong()) {
      throw refuse(
          ProtocolErrorId.REQUEST_LIVELOCK,
          OBJECT,
          "/requested_action",
          "This action was denied " + denied + " times; the Policy allows no further Request.");
    }
    List<StoredRecord> written = new ArrayList<>();
    written.add(StoredRecord.inSession(RecordKind.REQUEST, id, session.id(), request));
    original.ifPresent(
        o -> written.add(RequestLifecycle.superseded(o, id, session.nextEventId(), now)));
    // After the Request's own rules, so only a valid Request of a member meets the host's limit.
    targetLimits.checkTarget(call);
    boolean active = WorkSessionStatus.ACTIVE.getValue().equals(session.session().status());
    return new Effect(
        Optional.empty(),
        "request.created",
        OBJECT,
        id,
        written,
        active ? Optional.of(WorkSessionStatus.WAITING_ON_HUMAN.getValue()) : Optional.empty(),
        call.rawBody());
  }

  /**
   * Binds the Request to its Actors: it is asked by the calling Actor's own Worker, of a human
   * Worker of this WorkSession. A Request naming another requester would put words in another
   * Worker's mouth; one aimed at an agent or outside Worker could never be reviewed by the
   * WorkSession's human and would block its completion until a Takeover.
   */
  private static void checkParties(ProtocolCall call, JsonNode request, SessionView session) {
    String requester = request.path(Request.JSON_PROPERTY_REQUESTER_WORKER_ID).asText();
    if (!session.workerOf(call.actorId()).filter(requester::equals).isPresent()) {
      throw refuse(
          ProtocolErrorId.ACTOR_BODY_ID_MISMATCH,
          OBJECT,
          "/requester_worker_id",
          "requester_worker_id is not the Worker of the Actor named in Jarvis-Actor-Id.",
          "Set requester_worker_id to the Worker of the Actor named in Jarvis-Actor-Id.");
    }
    String target = request.path(Request.JSON_PROPERTY_TARGET_HUMAN_WORKER_ID).asText();
    // The WorkSession's one human Worker, which genesis checked is a registered human Worker.
    if (!target.equals(
        session.session().snapshot().path(WorkSession.JSON_PROPERTY_HUMAN_WORKER_ID).asText())) {
      throw refuse(
          ProtocolErrorId.UNKNOWN_STATE,
          OBJECT,
          "/target_human_worker_id",
          "No human Worker " + target + " in this WorkSession; name its human_worker_id.",
          "Set target_human_worker_id to the WorkSession's human_worker_id: a Request waits on"
              + " the human Worker of its own WorkSession.");
    }
  }

  /** The open Request this one supersedes, if it names one as {@code duplicate_of_request_id}. */
  private static Optional<StoredRecord> original(JsonNode request, SessionView session) {
    if (!request.hasNonNull(Request.JSON_PROPERTY_DUPLICATE_OF_REQUEST_ID)) {
      return Optional.empty();
    }
    String originalId = request.path(Request.JSON_PROPERTY_DUPLICATE_OF_REQUEST_ID).asText();
    StoredRecord original =
        session
            .record(RecordKind.REQUEST, originalId)
            .orElseThrow(
                () ->
                    refuse(
                        ProtocolErrorId.DUPLICATE_REQUEST_MISMATCH,
                        OBJECT,
                        "/duplicate_of_request_id",
                        "No Request " + originalId + " in this WorkSession to supersede."));
    if (!RequestLifecycle.isOpen(original)) {
      throw refuse(
          ProtocolErrorId.INVALID_REQUEST_TRANSITION,
          OBJECT,
          "/duplicate_of_request_id",
          "Request "
              + originalId
              + " is "
              + original.body().path(Request.JSON_PROPERTY_STATUS).asText()
              + "; only an open Request can be superseded.");
    }
    return Optional.of(original);
  }
}
