package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.ID_TAKEN;
import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.model.Actor;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.Contribution;
import dev.jarvis.model.ContributionRole;
import dev.jarvis.model.ContributionScope;
import dev.jarvis.model.ContributorRef;
import dev.jarvis.model.ContributorType;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.WorkSession;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * recordContribution: each contributor ref names a registered Actor of the named registered Worker,
 * and that Worker is one of this WorkSession's two ({@code invalid_contributor_refs}); the
 * Contribution is bound to those Actors ({@link #checkBinding}); {@code event_refs} are events of
 * this WorkSession ({@code missing_jarvis_event}) and {@code review_refs} its Reviews ({@code
 * unknown_state}).
 */
final class ContributionRule implements ScopedRule {

  static final String OBJECT = "contribution";

  @Override
  public Effect apply(ProtocolCall call, SessionView session) {
    JsonNode contribution = call.body();
    String id = contribution.path(Contribution.JSON_PROPERTY_ID).asText();
    JsonNode refs = contribution.path(Contribution.JSON_PROPERTY_CONTRIBUTOR_REFS);
    JsonNode snapshot = session.session().snapshot();
    Set<String> members =
        Set.of(
            snapshot.path(WorkSession.JSON_PROPERTY_HUMAN_WORKER_ID).asText(),
            snapshot.path(WorkSession.JSON_PROPERTY_AGENT_WORKER_ID).asText());
    List<JsonNode> actors = new ArrayList<>();
    for (int i = 0; i < refs.size(); i++) {
      JsonNode ref = refs.get(i);
      String workerId = ref.path(ContributorRef.JSON_PROPERTY_WORKER_ID).asText();
      Optional<JsonNode> actor =
          session
              .global(RecordKind.ACTOR, ref.path(ContributorRef.JSON_PROPERTY_ACTOR_ID).asText())
              .filter(a -> workerId.equals(a.path(Actor.JSON_PROPERTY_WORKER_ID).asText()));
      if (actor.isEmpty() || session.global(RecordKind.WORKER, workerId).isEmpty()) {
        throw refuse(
            ProtocolErrorId.INVALID_CONTRIBUTOR_REFS,
            OBJECT,
            "/contributor_refs/" + i,
            "The ref does not name a registered Actor of registered Worker " + workerId + ".");
      }
      if (!members.contains(workerId)) {
        throw refuse(
            ProtocolErrorId.INVALID_CONTRIBUTOR_REFS,
            OBJECT,
            "/contributor_refs/" + i,
            "Worker "
                + workerId
                + " is neither the human nor the agent Worker of this WorkSession.");
      }
      actors.add(actor.get());
    }
    checkBinding(contribution, actors);
    List<String> events =
        RecordFields.texts(contribution.path(Contribution.JSON_PROPERTY_EVENT_REFS));
    for (int i = 0; i < events.size(); i++) {
      if (!session.hasEvent(events.get(i))) {
        throw refuse(
            ProtocolErrorId.MISSING_JARVIS_EVENT,
            OBJECT,
            "/event_refs/" + i,
            "No event " + events.get(i) + " in this WorkSession.");
      }
    }
    List<String> reviews =
        RecordFields.texts(contribution.path(Contribution.JSON_PROPERTY_REVIEW_REFS));
    for (int i = 0; i < reviews.size(); i++) {
      if (session.record(RecordKind.REVIEW, reviews.get(i)).isEmpty()) {
        throw refuse(
            ProtocolErrorId.UNKNOWN_STATE,
            OBJECT,
            "/review_refs/" + i,
            "No Review " + reviews.get(i) + " in this WorkSession.");
      }
    }
    if (session.record(RecordKind.CONTRIBUTION, id).isPresent()) {
      throw refuse(
          ProtocolErrorId.INVALID_TRANSITION,
          OBJECT,
          "/id",
          "Contribution " + id + " is recorded already.",
          ID_TAKEN);
    }
    return Effect.recording(
        "contribution.recorded",
        OBJECT,
        StoredRecord.inSession(RecordKind.CONTRIBUTION, id, session.id(), contribution),
        Optional.empty(),
        call.rawBody());
  }

  /**
   * The credit fits the Actors credited. The spec gives the rules their ids but not their reading;
   * the safe one, in {@code docs/protocol-decisions.md} ("Contributions bound to their Actors"):
   *
   * <ul>
   *   <li>Each ref's {@code contribution_role} is one of its Actor's {@code
   *       contribution_scope.contribution_roles}, and it is the Actor's own type ({@code human}
   *       only for a human Actor, {@code agent} only for an agent Actor, …) or {@code shared},
   *       which only a shared Contribution gives ({@code invalid_contributor_refs}).
   *   <li>A {@code contributor_type} other than {@code shared} credits Actors of that type only
   *       ({@code invalid_contributor_refs}).
   *   <li>A {@code shared} Contribution credits at least two individual contributors: the
   *       contributor is the Worker (the Actor represents it), so at least two Workers ({@code
   *       shared_contribution_without_individual_refs}).
   * </ul>
   */
  private static void checkBinding(JsonNode contribution, List<JsonNode> actors) {
    JsonNode refs = contribution.path(Contribution.JSON_PROPERTY_CONTRIBUTOR_REFS);
    ContributorType type =
        ContributorType.fromValue(
            contribution.path(Contribution.JSON_PROPERTY_CONTRIBUTOR_TYPE).asText());
    boolean shared = type == ContributorType.SHARED;
    Set<String> workers = new HashSet<>();
    for (int i = 0; i < refs.size(); i++) {
      JsonNode ref = refs.get(i);
      JsonNode actor = actors.get(i);
      // A registered Actor's type is one of the enum's (the payload validator saw to it).
      String actorType = Membership.typeOf(actor).map(ActorType::getValue).orElse("");
      String role = ref.path(ContributorRef.JSON_PROPERTY_CONTRIBUTION_ROLE).asText();
      workers.add(ref.path(ContributorRef.JSON_PROPERTY_WORKER_ID).asText());
      if (!RecordFields.texts(
              actor
                  .path(Actor.JSON_PROPERTY_CONTRIBUTION_SCOPE)
                  .path(ContributionScope.JSON_PROPERTY_CONTRIBUTION_ROLES))
          .contains(role)) {
        throw refuse(
            ProtocolErrorId.INVALID_CONTRIBUTOR_REFS,
            OBJECT,
            "/contributor_refs/" + i + "/contribution_role",
            "Actor "
                + actor.path(Actor.JSON_PROPERTY_ID).asText()
                + " may not be credited in role "
                + role
                + ": it is outside its contribution_scope.");
      }
      // ContributionRole names each ActorType's own role by the same text (human, agent, ...).
      ContributionRole credited = ContributionRole.fromValue(role);
      boolean ownRole = credited.getValue().equals(actorType);
      if (!ownRole && !(shared && credited == ContributionRole.SHARED)) {
        throw refuse(
            ProtocolErrorId.INVALID_CONTRIBUTOR_REFS,
            OBJECT,
            "/contributor_refs/" + i + "/contribution_role",
            "A "
                + actorType
                + " Actor is credited in its own role, "
                + actorType
                + (shared ? ", or shared" : "")
                + "; not "
                + role
                + ".");
      }
      if (!shared && !type.getValue().equals(actorType)) {
        throw refuse(
            ProtocolErrorId.INVALID_CONTRIBUTOR_REFS,
            OBJECT,
            "/contributor_refs/" + i,
            "A "
                + type.getValue()
                + " Contribution credits "
                + type.getValue()
                + " Actors only; this ref names a "
                + actorType
                + " Actor. Credit several kinds of contributor as shared.");
      }
    }
    if (shared && workers.size() < 2) {
      throw refuse(
          ProtocolErrorId.SHARED_CONTRIBUTION_WITHOUT_INDIVIDUAL_REFS,
          OBJECT,
          "/contributor_refs",
          "A shared Contribution credits at least two Workers; these refs name one.");
    }
  }
}
