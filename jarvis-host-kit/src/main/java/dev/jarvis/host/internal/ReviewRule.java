package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.ID_TAKEN;
import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.error.ProtocolErrorCatalog;
import dev.jarvis.core.hash.ActionHash;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.model.ApprovalScope;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.Request;
import dev.jarvis.model.RequestStatus;
import dev.jarvis.model.Review;
import dev.jarvis.model.ReviewDecision;
import dev.jarvis.model.WorkSessionStatus;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * recordReview. The reviewer is a human Actor (checked by {@link ActorAuthority}) of the named
 * Worker; a Review of a Request comes from an Actor of the Request's {@code target_human_worker_id}
 * ({@code unauthorized_actor}). A Review whose {@code target_ref} is {@code request:<id>} resolves
 * that open Request: the Request gets the status of the decision, {@code resolved_at} and {@code
 * resolved_by_review_id} (and {@code resolved_by_takeover_id} for a takeover). An {@code
 * approval_scope} is bound to the Request: its ids ({@code invalid_approval_scope}); the revision,
 * event hash and action hash the Request was recorded with, and its requester ({@code
 * approval_scope_mismatch}); an expiry still ahead ({@code approval_scope_expired}). An
 * ApprovalScope is bound to a Request by its required fields, so one on a Review of anything but
 * that Request is {@code invalid_approval_scope}: it would approve an action no human was asked
 * about.
 */
final class ReviewRule implements ScopedRule {

  static final String OBJECT = "review";
  static final String REQUEST_PREFIX = "request:";
  private static final Map<ReviewDecision, RequestStatus> RESOLUTION =
      Map.of(
          ReviewDecision.APPROVE, RequestStatus.APPROVED,
          ReviewDecision.DENY, RequestStatus.DENIED,
          ReviewDecision.NARROW, RequestStatus.NARROWED,
          ReviewDecision.ANSWER, RequestStatus.ANSWERED,
          ReviewDecision.CORRECT, RequestStatus.ANSWERED,
          ReviewDecision.NEEDS_REVISION, RequestStatus.NEEDS_REVISION,
          ReviewDecision.TAKEOVER, RequestStatus.TAKEOVER);

  private final Clock clock;

  ReviewRule(Clock clock) {
    this.clock = clock;
  }

  @Override
  public Effect apply(ProtocolCall call, SessionView session) {
    JsonNode review = call.body();
    String id = review.path(Review.JSON_PROPERTY_ID).asText();
    String workerId = session.workerOf(call.actorId()).orElseThrow();
    if (!workerId.equals(review.path(Review.JSON_PROPERTY_REVIEWER_WORKER_ID).asText())) {
      throw refuse(
          ProtocolErrorId.UNAUTHORIZED_ACTOR,
          OBJECT,
          "/reviewer_worker_id",
          "The reviewing Actor belongs to Worker " + workerId + ".");
    }
    if (session.record(RecordKind.REVIEW, id).isPresent()) {
      throw refuse(
          ProtocolErrorId.INVALID_TRANSITION,
          OBJECT,
          "/id",
          "Review " + id + " is recorded already.",
          ID_TAKEN);
    }
    List<StoredRecord> written = new ArrayList<>();
    written.add(StoredRecord.inSession(RecordKind.REVIEW, id, session.id(), review));
    String target = review.path(Review.JSON_PROPERTY_TARGET_REF).asText();
    Optional<String> nextStatus = Optional.empty();
    if (!target.startsWith(REQUEST_PREFIX) && review.has(Review.JSON_PROPERTY_APPROVAL_SCOPE)) {
      // Not resolving a Request, the scope still names one: it is held to that Request all the
      // same, so it cannot approve something no human was asked about.
      JsonNode scope = review.path(Review.JSON_PROPERTY_APPROVAL_SCOPE);
      String named = scope.path(ApprovalScope.JSON_PROPERTY_REQUEST_ID).asText();
      StoredRecord request =
          session
              .record(RecordKind.REQUEST, named)
              .orElseThrow(
                  () ->
                      refuse(
                          ProtocolErrorId.INVALID_APPROVAL_SCOPE,
                          OBJECT,
                          "/approval_scope/request_id",
                          "No Request " + named + " in this WorkSession."));
      checkScope(scope, id, request, session.id(), clock.instant());
    }
    if (target.startsWith(REQUEST_PREFIX)) {
      Instant now = clock.instant();
      StoredRecord request = openRequest(session, target.substring(REQUEST_PREFIX.length()), now);
      String targetWorker =
          request.body().path(Request.JSON_PROPERTY_TARGET_HUMAN_WORKER_ID).asText();
      if (!targetWorker.equals(workerId)) {
        throw refuse(
            ProtocolErrorId.UNAUTHORIZED_ACTOR,
            OBJECT,
            "/reviewer_actor_id",
            "Request " + request.id() + " asks Worker " + targetWorker + ", not this Actor's.");
      }
      if (review.has(Review.JSON_PROPERTY_APPROVAL_SCOPE)) {
        checkScope(
            review.path(Review.JSON_PROPERTY_APPROVAL_SCOPE), id, request, session.id(), now);
        if (ReviewDecision.fromValue(review.path(Review.JSON_PROPERTY_DECISION).asText())
            == ReviewDecision.APPROVE) {
          // An approval covers the requested action itself; only narrow may approve less.
          same(
              review.path(Review.JSON_PROPERTY_APPROVAL_SCOPE),
              "normalized_action_hash",
              ActionHash.of(request.body().path(Request.JSON_PROPERTY_REQUESTED_ACTION)),
              ProtocolErrorId.APPROVAL_SCOPE_MISMATCH);
        }
      }
      written.add(resolved(request, review, now));
      nextStatus =
          RequestLifecycle.statusAfterClosing(session, request.id())
              .map(WorkSessionStatus::getValue);
    }
    return new Effect(
        Optional.empty(), "review.recorded", OBJECT, id, written, nextStatus, call.rawBody());
  }

  private static StoredRecord openRequest(SessionView session, String requestId, Instant now) {
    StoredRecord request =
        session
            .record(RecordKind.REQUEST, requestId)
            .orElseThrow(
                () ->
                    refuse(
                        ProtocolErrorId.UNKNOWN_STATE,
                        OBJECT,
                        "/target_ref",
                        "No Request " + requestId + " in this WorkSession."));
    String status = request.body().path(Request.JSON_PROPERTY_STATUS).asText();
    if (!RequestLifecycle.isOpen(request)) {
      throw refuse(
          ProtocolErrorId.INVALID_REQUEST_TRANSITION,
          OBJECT,
          "/target_ref",
          "Request " + requestId + " is " + status + " already.");
    }
    Optional<Instant> expires =
        Timestamps.of(request.body().path(Request.JSON_PROPERTY_EXPIRES_AT));
    if (expires.isPresent() && !expires.get().isAfter(now)) {
      throw refuse(
          ProtocolErrorId.INVALID_REQUEST_TRANSITION,
          OBJECT,
          "/target_ref",
          "Request " + requestId + " expired; it can no longer be resolved by a Review.");
    }
    return request;
  }

  private static void checkScope(
      JsonNode scope, String reviewId, StoredRecord request, String workSessionId, Instant now) {
    JsonNode body = request.body();
    same(scope, "request_id", request.id(), ProtocolErrorId.INVALID_APPROVAL_SCOPE);
    same(scope, "review_id", reviewId, ProtocolErrorId.INVALID_APPROVAL_SCOPE);
    same(
        scope,
        "policy_decision_id",
        body.path(Request.JSON_PROPERTY_POLICY_DECISION_ID).asText(),
        ProtocolErrorId.INVALID_APPROVAL_SCOPE);
    same(
        scope, "applies_to_work_session_id", workSessionId, ProtocolErrorId.INVALID_APPROVAL_SCOPE);
    ChainCursor recorded = request.recordedAt().orElseThrow();
    same(
        scope,
        "request_revision",
        Long.toString(recorded.revision()),
        ProtocolErrorId.APPROVAL_SCOPE_MISMATCH);
    same(
        scope,
        "request_event_hash",
        recorded.lastEventHash(),
        ProtocolErrorId.APPROVAL_SCOPE_MISMATCH);
    same(
        scope,
        "normalized_action_hash",
        ActionHash.of(scope.path(ApprovalScope.JSON_PROPERTY_APPROVED_ACTION)),
        ProtocolErrorId.APPROVAL_SCOPE_MISMATCH);
    same(
        scope,
        "applies_to_actor_id",
        body.path(Request.JSON_PROPERTY_REQUESTER_ACTOR_ID).asText(),
        ProtocolErrorId.APPROVAL_SCOPE_MISMATCH);
    Optional<Instant> expires = Timestamps.of(scope.path(ApprovalScope.JSON_PROPERTY_EXPIRES_AT));
    if (expires.isEmpty() || !expires.get().isAfter(now)) {
      throw refuse(
          ProtocolErrorId.APPROVAL_SCOPE_EXPIRED,
          OBJECT,
          "/approval_scope/expires_at",
          "The ApprovalScope's expiry is not in the future.",
          "Give the ApprovalScope an expires_at after the host's current time, so the approval"
              + " can still be used.");
    }
  }

  private static void same(JsonNode scope, String field, String expected, ProtocolErrorId error) {
    if (!expected.equals(scope.path(field).asText())) {
      throw refuse(
          error,
          OBJECT,
          "/approval_scope/" + field,
          field + " must be " + expected + " for this Request.",
          error == ProtocolErrorId.APPROVAL_SCOPE_MISMATCH
              ? "Bind the ApprovalScope to the Request as recorded: its request_revision and"
                  + " request_event_hash, the hash of approved_action and the requesting Actor."
              : ProtocolErrorCatalog.remediation(error));
    }
  }

  private static StoredRecord resolved(StoredRecord request, JsonNode review, Instant now) {
    ObjectNode body = ((ObjectNode) request.body()).deepCopy();
    ReviewDecision decision =
        ReviewDecision.fromValue(review.path(Review.JSON_PROPERTY_DECISION).asText());
    body.put(Request.JSON_PROPERTY_STATUS, RESOLUTION.get(decision).getValue());
    body.put(Request.JSON_PROPERTY_RESOLVED_AT, Timestamps.format(now));
    body.put(
        Request.JSON_PROPERTY_RESOLVED_BY_REVIEW_ID, review.path(Review.JSON_PROPERTY_ID).asText());
    if (decision == ReviewDecision.TAKEOVER) {
      body.put(
          Request.JSON_PROPERTY_RESOLVED_BY_TAKEOVER_ID,
          review.path(Review.JSON_PROPERTY_TAKEOVER_ID).asText());
    }
    return new StoredRecord(
        request.kind(), request.id(), request.workSessionId(), body, request.recordedAt());
  }
}
