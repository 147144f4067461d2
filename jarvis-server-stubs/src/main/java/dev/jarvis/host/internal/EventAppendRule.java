package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.model.ProtocolErrorId;
import java.util.List;
import java.util.Optional;

/**
 * appendJarvisEvent: the client's event is appended verbatim once {@code EventChain.checkNext}
 * accepts it (done by {@link SessionMutations}). Its type may end the WorkSession (see {@link
 * WorkSessionLifecycle}). An AgentWorker's event is an agent action: it names the PolicyDecision
 * that allowed it as {@code policy_decision:<id>} in {@code payload.evidence_refs}. No such
 * reference or decision is {@code missing_policy_decision}; a {@code deny} decision is {@code
 * policy_denied}; a {@code review_required} decision whose Request was not approved or narrowed is
 * {@code review_required}.
 */
final class EventAppendRule implements ScopedRule {

  static final String OBJECT = "jarvis_event";
  static final String DECISION_REF = "policy_decision:";

  private final ActorAuthority authority;

  EventAppendRule(ActorAuthority authority) {
    this.authority = authority;
  }

  @Override
  public Effect apply(ProtocolCall call, SessionView session) {
    JsonNode event = call.body();
    String type = event.path("type").asText();
    if (authority.typeOf(call.actorId()).filter("agent"::equals).isPresent()) {
      checkDecision(call.actorId(), event, session);
    }
    Optional<String> next = WorkSessionLifecycle.afterEvent(session.session().status(), type);
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

  private static void checkDecision(String actorId, JsonNode event, SessionView session) {
    Optional<String> named =
        RecordFields.texts(event.path("payload").path("evidence_refs")).stream()
            .filter(ref -> ref.startsWith(DECISION_REF))
            .map(ref -> ref.substring(DECISION_REF.length()))
            .findFirst();
    StoredRecord decision =
        named
            .flatMap(id -> session.record(RecordKind.POLICY_DECISION, id))
            .filter(d -> actorId.equals(d.body().path("actor_id").asText()))
            .orElseThrow(
                () ->
                    refuse(
                        ProtocolErrorId.MISSING_POLICY_DECISION,
                        OBJECT,
                        "/payload/evidence_refs",
                        "An AgentWorker action names its PolicyDecision as "
                            + DECISION_REF
                            + "<id>, recorded in this WorkSession for the same Actor."));
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
    }
  }
}
