package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.ID_TAKEN;
import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.host.AgentActions;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.model.ApprovalScope;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.JarvisEventPayload;
import dev.jarvis.model.PolicyActionRequest;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.Request;
import dev.jarvis.model.RequestStatus;
import dev.jarvis.model.Review;
import dev.jarvis.model.WorkSessionStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * appendJarvisEvent: the client's event is appended verbatim once {@code EventChain.checkNext}
 * accepts it (done by {@link SessionMutations}).
 *
 * <ul>
 *   <li>The log cannot be forged: an event of a type the host writes itself for an accepted
 *       mutation, of a type the host team reserved, or of a look-alike of either ({@link
 *       ProtocolRules#reservedEventTypes}) claims a record the host never accepted, and is {@code
 *       unauthorized_actor}; so is an event id of the form the host gives its own events ({@code
 *       <work_session_id>.event.<n>}). An event id the chain already holds is {@code
 *       invalid_transition}: ids are unique within a WorkSession, so an export can list them all.
 *       An event whose {@code timestamp} lies outside the host's freshness window (the
 *       request-timestamp tolerance, either side of the host clock) is evidence claimed after the
 *       fact, {@code evidence_after_the_fact}.
 *   <li>Its type may end the WorkSession (see {@link WorkSessionLifecycle}); it cannot complete
 *       while a Request is open ({@code request_unresolved}); expired and superseded Requests are
 *       not open.
 *   <li>Every event an agent Actor appends is an agent action, unless its type is one of the host's
 *       non-action types ({@code AgentActions.nonActionEventTypes}). It becomes accepted state only
 *       under a PolicyDecision of this WorkSession, recorded for the same Actor and for exactly
 *       this action ({@code payload.action}, code point by code point), named as {@code
 *       policy_decision:<id>} in {@code payload.evidence_refs}, and not used up: an {@code allow}
 *       or {@code narrow} decision admits one action; anything else is {@code
 *       missing_policy_decision}. A {@code deny} decision is {@code policy_denied}; a {@code
 *       review_required} decision whose own Request was not approved or narrowed is {@code
 *       review_required}.
 *   <li>An approved action is bound at use to the approving Review's ApprovalScope: the decision is
 *       the scope's {@code policy_decision_id} (and the Request's), the action the scope's {@code
 *       approved_action}, the Actor its {@code applies_to_actor_id}, the WorkSession its {@code
 *       applies_to_work_session_id} ({@code approval_scope_mismatch}); before its {@code
 *       expires_at} and within {@code max_uses}, counted over every event citing a decision of the
 *       scope's Request ({@code approval_scope_expired}).
 * </ul>
 */
final class EventAppendRule implements ScopedRule {

  static final String OBJECT = "jarvis_event";
  static final String DECISION_REF = "policy_decision:";
  private static final String REFS = "/payload/evidence_refs";

  private final Clock clock;
  private final Duration freshness;
  private final ProtocolRules rules;
  private final AgentActions agents;

  EventAppendRule(Clock clock, Duration freshness, ProtocolRules rules, AgentActions agents) {
    this.clock = clock;
    this.freshness = freshness;
    this.rules = rules;
    this.agents = agents;
  }

  /** The appended event's own id, whose reuse {@link #checkId} refuses. */
  @Override
  public Set<String> eventIdsAsked(ProtocolCall call) {
    return Set.of(call.body().path(JarvisEvent.JSON_PROPERTY_ID).asText());
  }

  @Override
  public Effect apply(ProtocolCall call, SessionView session) {
    JsonNode event = call.body();
    String type = event.path(JarvisEvent.JSON_PROPERTY_TYPE).asText();
    rules
        .reservedAs(type)
        .ifPresent(
            reserved -> {
              throw refuse(
                  ProtocolErrorId.UNAUTHORIZED_ACTOR,
                  OBJECT,
                  "/type",
                  reserved.equals(type)
                      ? "Only the host writes " + type + " events, for the mutations it accepted."
                      : "The event type imitates " + reserved + ", which only the host writes.",
                  "Leave events of this type to the host: it writes them itself for the mutations"
                      + " it accepts, so make the change through its own operation (a Request,"
                      + " Review, Takeover or other record), or give your event a type of its own.");
            });
    checkId(event.path(JarvisEvent.JSON_PROPERTY_ID).asText(), session);
    checkFresh(event);
    if (session.isAgent(call.actorId()) && !agents.nonActionEventTypes().contains(type)) {
      checkDecision(call.actorId(), event, session);
    }
    Optional<String> next = WorkSessionLifecycle.afterEvent(session.session().status(), type);
    if (next.filter(WorkSessionStatus.COMPLETED.getValue()::equals).isPresent()) {
      // Completing means the blocked work was settled; failing or cancelling needs no resolution.
      session.openRequests().stream()
          .findFirst()
          .ifPresent(
              request -> {
                throw refuse(
                    ProtocolErrorId.REQUEST_UNRESOLVED,
                    OBJECT,
                    "/type",
                    "Request " + request.id() + " is still open; resolve it before completing.");
              });
    }
    JsonNode payload = event.path(JarvisEvent.JSON_PROPERTY_PAYLOAD);
    return new Effect(
        Optional.of(event),
        type,
        payload.path(JarvisEventPayload.JSON_PROPERTY_OBJECT_TYPE).asText(),
        payload
            .path(JarvisEventPayload.JSON_PROPERTY_OBJECT_ID)
            .asText(event.path(JarvisEvent.JSON_PROPERTY_ID).asText()),
        List.of(),
        next,
        call.rawBody());
  }

  private static void checkId(String id, SessionView session) {
    if (HostEventIds.isHostEventId(session.id(), id)) {
      throw refuse(
          ProtocolErrorId.UNAUTHORIZED_ACTOR,
          OBJECT,
          "/id",
          "Event ids of the form " + session.id() + ".event.<n> are the host's own.",
          "Give the event an id outside the form <work_session_id>.event.<n>, which the host"
              + " keeps for the events it writes.");
    }
    if (session.hasEvent(id)) {
      throw refuse(
          ProtocolErrorId.INVALID_TRANSITION,
          OBJECT,
          "/id",
          "The WorkSession holds an event " + id + " already; event ids are unique within it.",
          ID_TAKEN);
    }
  }

  private void checkFresh(JsonNode event) {
    Instant now = clock.instant();
    Optional<Instant> at = Timestamps.of(event.path(JarvisEvent.JSON_PROPERTY_TIMESTAMP));
    if (at.isEmpty()
        || at.get().isBefore(now.minus(freshness))
        || at.get().isAfter(now.plus(freshness))) {
      throw refuse(
          ProtocolErrorId.EVIDENCE_AFTER_THE_FACT,
          OBJECT,
          "/timestamp",
          "An event is recorded while it happens: its timestamp must lie within "
              + freshness.toSeconds()
              + " s of the host clock.",
          "Append each event as it happens, its timestamp read from a clock in step with the"
              + " host's; cite earlier work from a current event instead of back-dating one.");
    }
  }

  private void checkDecision(String actorId, JsonNode event, SessionView session) {
    String action =
        event
            .path(JarvisEvent.JSON_PROPERTY_PAYLOAD)
            .path(JarvisEventPayload.JSON_PROPERTY_ACTION)
            .asText();
    StoredRecord decision =
        decisionRef(event)
            .flatMap(id -> session.record(RecordKind.POLICY_DECISION, id))
            .filter(
                d -> actorId.equals(d.body().path(PolicyDecision.JSON_PROPERTY_ACTOR_ID).asText()))
            .filter(
                d ->
                    action.equals(
                        d.body()
                            .path(PolicyDecision.JSON_PROPERTY_REQUESTED_ACTION)
                            .path(PolicyActionRequest.JSON_PROPERTY_ACTION)
                            .asText()))
            .orElseThrow(
                () ->
                    refuse(
                        ProtocolErrorId.MISSING_POLICY_DECISION,
                        OBJECT,
                        REFS,
                        "Every agent action names its PolicyDecision as "
                            + DECISION_REF
                            + "<id>, recorded in this WorkSession for the same Actor and for"
                            + " exactly this action."));
    String result = decision.body().path(PolicyDecision.JSON_PROPERTY_RESULT).asText();
    if (PolicyDecisionResult.DENY.getValue().equals(result)) {
      throw refuse(
          ProtocolErrorId.POLICY_DENIED,
          OBJECT,
          REFS,
          "PolicyDecision " + decision.id() + " denied this action.");
    }
    if (PolicyDecisionResult.REVIEW_REQUIRED.getValue().equals(result)) {
      String requestId = decision.body().path(PolicyDecision.JSON_PROPERTY_REQUEST_ID).asText();
      Optional<StoredRecord> request = session.record(RecordKind.REQUEST, requestId);
      Optional<RequestStatus> status = request.map(r -> RequestLifecycle.status(r.body()));
      if (status
          .filter(s -> s == RequestStatus.APPROVED || s == RequestStatus.NARROWED)
          .isEmpty()) {
        throw refuse(
            ProtocolErrorId.REVIEW_REQUIRED,
            OBJECT,
            REFS,
            "PolicyDecision "
                + decision.id()
                + " needs an approving Review of Request "
                + requestId
                + ".");
      }
      checkApprovalUse(actorId, action, decision, request.get(), session);
      return;
    }
    // allow or narrow: the decision judged one action; a second needs a decision of its own.
    if (session.countCiting(DECISION_REF + decision.id()) > 0) {
      throw refuse(
          ProtocolErrorId.MISSING_POLICY_DECISION,
          OBJECT,
          REFS,
          "PolicyDecision "
              + decision.id()
              + " was used by an earlier action; record a decision for this one.");
    }
  }

  /**
   * The approval of Request {@code request} covers this use: the Request was raised for this very
   * decision, and the approving Review's ApprovalScope, if it carries one, admits this action by
   * this Actor in this WorkSession, now, one more time.
   */
  private void checkApprovalUse(
      String actorId,
      String action,
      StoredRecord decision,
      StoredRecord request,
      SessionView session) {
    if (!decision
        .id()
        .equals(request.body().path(Request.JSON_PROPERTY_POLICY_DECISION_ID).asText())) {
      throw mismatch(
          "Request "
              + request.id()
              + " was raised for PolicyDecision "
              + request.body().path(Request.JSON_PROPERTY_POLICY_DECISION_ID).asText()
              + "; its approval does not cover "
              + decision.id()
              + ".");
    }
    String reviewId = request.body().path(Request.JSON_PROPERTY_RESOLVED_BY_REVIEW_ID).asText();
    Optional<JsonNode> found =
        session
            .record(RecordKind.REVIEW, reviewId)
            .map(r -> r.body().path(Review.JSON_PROPERTY_APPROVAL_SCOPE))
            .filter(JsonNode::isObject);
    if (found.isEmpty()) {
      // Approved without a scope: the Request's own action, by its requester, in this session.
      if (!action.equals(
              request
                  .body()
                  .path(Request.JSON_PROPERTY_REQUESTED_ACTION)
                  .path(PolicyActionRequest.JSON_PROPERTY_ACTION)
                  .asText())
          || !actorId.equals(
              request.body().path(Request.JSON_PROPERTY_REQUESTER_ACTOR_ID).asText())) {
        throw mismatch("Request " + request.id() + " approved another action or Actor.");
      }
      return;
    }
    JsonNode scope = found.get();
    if (!decision
        .id()
        .equals(scope.path(ApprovalScope.JSON_PROPERTY_POLICY_DECISION_ID).asText())) {
      throw mismatch("The ApprovalScope of Review " + reviewId + " names another PolicyDecision.");
    }
    if (!action.equals(
        scope
            .path(ApprovalScope.JSON_PROPERTY_APPROVED_ACTION)
            .path(PolicyActionRequest.JSON_PROPERTY_ACTION)
            .asText())) {
      throw mismatch(
          "The ApprovalScope of Review "
              + reviewId
              + " approves "
              + scope
                  .path(ApprovalScope.JSON_PROPERTY_APPROVED_ACTION)
                  .path(PolicyActionRequest.JSON_PROPERTY_ACTION)
                  .asText()
              + ", not "
              + action
              + ".");
    }
    if (!actorId.equals(scope.path(ApprovalScope.JSON_PROPERTY_APPLIES_TO_ACTOR_ID).asText())) {
      throw mismatch("The ApprovalScope of Review " + reviewId + " applies to another Actor.");
    }
    if (!session
        .id()
        .equals(scope.path(ApprovalScope.JSON_PROPERTY_APPLIES_TO_WORK_SESSION_ID).asText())) {
      throw mismatch(
          "The ApprovalScope of Review " + reviewId + " applies to another WorkSession.");
    }
    Optional<Instant> expires = Timestamps.of(scope.path(ApprovalScope.JSON_PROPERTY_EXPIRES_AT));
    if (expires.isEmpty() || !expires.get().isAfter(clock.instant())) {
      throw refuse(
          ProtocolErrorId.APPROVAL_SCOPE_EXPIRED,
          OBJECT,
          REFS,
          "The ApprovalScope of Review " + reviewId + " has expired.");
    }
    long uses = usesOf(request.id(), session);
    if (uses >= scope.path(ApprovalScope.JSON_PROPERTY_MAX_USES).asLong()) {
      throw refuse(
          ProtocolErrorId.APPROVAL_SCOPE_EXPIRED,
          OBJECT,
          REFS,
          "The ApprovalScope of Review "
              + reviewId
              + " allowed "
              + scope.path(ApprovalScope.JSON_PROPERTY_MAX_USES)
              + " use(s).");
    }
  }

  /**
   * The events citing any PolicyDecision raised under Request {@code requestId}: its uses. Each
   * decision's citations are the store's indexed count; an event names one decision (the first
   * {@code policy_decision:} ref is the one judged), so the sum counts each use once.
   */
  private static long usesOf(String requestId, SessionView session) {
    long uses = 0;
    for (StoredRecord d : session.records(RecordKind.POLICY_DECISION)) {
      if (requestId.equals(d.body().path(PolicyDecision.JSON_PROPERTY_REQUEST_ID).asText())) {
        uses += session.countCiting(DECISION_REF + d.id());
      }
    }
    return uses;
  }

  private static RuntimeException mismatch(String reason) {
    return refuse(ProtocolErrorId.APPROVAL_SCOPE_MISMATCH, OBJECT, REFS, reason);
  }

  /** The {@code policy_decision:<id>} the event names, if any. */
  private static Optional<String> decisionRef(JsonNode event) {
    return RecordFields.texts(
            event
                .path(JarvisEvent.JSON_PROPERTY_PAYLOAD)
                .path(JarvisEventPayload.JSON_PROPERTY_EVIDENCE_REFS))
        .stream()
        .filter(ref -> ref.startsWith(DECISION_REF))
        .map(ref -> ref.substring(DECISION_REF.length()))
        .findFirst();
  }
}
