package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.model.ProtocolErrorId;
import java.time.Clock;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * appendJarvisEvent: the client's event is appended verbatim once {@code EventChain.checkNext}
 * accepts it (done by {@link SessionMutations}). Its type may end the WorkSession (see {@link
 * WorkSessionLifecycle}); it cannot complete while a Request is open ({@code request_unresolved}).
 * An AgentWorker's event whose {@code payload.action} is an action the WorkSession's Policy governs
 * (or that names a decision) is an agent action: it names the PolicyDecision that allowed that
 * action as {@code policy_decision:<id>} in {@code payload.evidence_refs}. No such reference or
 * decision is {@code missing_policy_decision}; a {@code deny} decision is {@code policy_denied}; a
 * {@code review_required} decision whose Request was not approved or narrowed is {@code
 * review_required}.
 */
final class EventAppendRule implements ScopedRule {

  static final String OBJECT = "jarvis_event";
  static final String DECISION_REF = "policy_decision:";

  private final ActorAuthority authority;
  private final Clock clock;

  EventAppendRule(ActorAuthority authority, Clock clock) {
    this.authority = authority;
    this.clock = clock;
  }

  @Override
  public Effect apply(ProtocolCall call, SessionView session) {
    JsonNode event = call.body();
    String type = event.path("type").asText();
    if (authority.typeOf(call.actorId()).filter("agent"::equals).isPresent()
        && (governed(session).contains(event.path("payload").path("action").asText())
            || decisionRef(event).isPresent())) {
      checkDecision(call.actorId(), event, session);
    }
    Optional<String> next = WorkSessionLifecycle.afterEvent(session.session().status(), type);
    if (next.filter("completed"::equals).isPresent()) {
      // Completing means the blocked work was settled; failing or cancelling needs no resolution.
      for (StoredRecord request : session.records(RecordKind.REQUEST)) {
        if (RequestRule.OPEN.contains(request.body().path("status").asText())) {
          throw refuse(
              ProtocolErrorId.REQUEST_UNRESOLVED,
              OBJECT,
              "/type",
              "Request " + request.id() + " is still open; resolve it before completing.");
        }
      }
    }
    JsonNode payload = event.path("payload");
    return new Effect(
        Optional.of(event),
        type,
        payload.path("object_type").asText(),
        payload.path("object_id").asText(event.path("id").asText()),
        List.of(),
        next,
        call.rawBody());
  }

  private void checkDecision(String actorId, JsonNode event, SessionView session) {
    String action = event.path("payload").path("action").asText();
    StoredRecord decision =
        decisionRef(event)
            .flatMap(id -> session.record(RecordKind.POLICY_DECISION, id))
            .filter(d -> actorId.equals(d.body().path("actor_id").asText()))
            .filter(d -> action.equals(d.body().path("requested_action").path("action").asText()))
            .orElseThrow(
                () ->
                    refuse(
                        ProtocolErrorId.MISSING_POLICY_DECISION,
                        OBJECT,
                        "/payload/evidence_refs",
                        "An AgentWorker action names its PolicyDecision as "
                            + DECISION_REF
                            + "<id>, recorded in this WorkSession for the same Actor and action."));
    String result = decision.body().path("result").asText();
    if ("deny".equals(result)) {
      throw refuse(
          ProtocolErrorId.POLICY_DENIED,
          OBJECT,
          "/payload/evidence_refs",
          "PolicyDecision " + decision.id() + " denied this action.");
    }
    if ("review_required".equals(result)) {
      String requestId = decision.body().path("request_id").asText();
      String status =
          session
              .record(RecordKind.REQUEST, requestId)
              .map(r -> r.body().path("status").asText())
              .orElse("absent");
      if (!"approved".equals(status) && !"narrowed".equals(status)) {
        throw refuse(
            ProtocolErrorId.REVIEW_REQUIRED,
            OBJECT,
            "/payload/evidence_refs",
            "PolicyDecision "
                + decision.id()
                + " needs an approving Review of Request "
                + requestId
                + ".");
      }
      checkApprovalUse(decision, session);
    }
  }

  /**
   * An ApprovalScope allows at most {@code max_uses} agent actions, until its {@code expires_at}; a
   * use is an event naming the decision. Either limit passed is {@code approval_scope_expired}.
   */
  private void checkApprovalUse(StoredRecord decision, SessionView session) {
    String requestId = decision.body().path("request_id").asText();
    String reviewId =
        session
            .record(RecordKind.REQUEST, requestId)
            .map(r -> r.body().path("resolved_by_review_id").asText())
            .orElse("");
    JsonNode scope =
        session
            .record(RecordKind.REVIEW, reviewId)
            .map(r -> r.body().path("approval_scope"))
            .orElse(MissingNode.getInstance());
    if (!scope.isObject()) {
      return;
    }
    Optional<Instant> expires = Timestamps.of(scope.path("expires_at"));
    if (expires.isEmpty() || !expires.get().isAfter(clock.instant())) {
      throw refuse(
          ProtocolErrorId.APPROVAL_SCOPE_EXPIRED,
          OBJECT,
          "/payload/evidence_refs",
          "The ApprovalScope of Review " + reviewId + " has expired.");
    }
    String ref = DECISION_REF + decision.id();
    long uses =
        session.events().stream()
            .filter(e -> RecordFields.texts(e.path("payload").path("evidence_refs")).contains(ref))
            .count();
    if (uses >= scope.path("max_uses").asLong()) {
      throw refuse(
          ProtocolErrorId.APPROVAL_SCOPE_EXPIRED,
          OBJECT,
          "/payload/evidence_refs",
          "The ApprovalScope of Review "
              + reviewId
              + " allowed "
              + scope.path("max_uses")
              + " use(s).");
    }
  }

  /** The {@code policy_decision:<id>} the event names, if any. */
  private static Optional<String> decisionRef(JsonNode event) {
    return RecordFields.texts(event.path("payload").path("evidence_refs")).stream()
        .filter(ref -> ref.startsWith(DECISION_REF))
        .map(ref -> ref.substring(DECISION_REF.length()))
        .findFirst();
  }

  /** The actions the WorkSession's Policy governs: allowed, denied, reviewed or external sends. */
  private static Set<String> governed(SessionView session) {
    Set<String> actions = new HashSet<>();
    session
        .policy()
        .ifPresent(
            policy -> {
              for (String list :
                  List.of(
                      "allowed_actions",
                      "denied_actions",
                      "review_required_actions",
                      "external_send_rules")) {
                actions.addAll(RecordFields.actionNames(policy.path(list)));
              }
            });
    return actions;
  }
}
