package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.host.ProtocolRefusal;
import dev.jarvis.host.RecordKind;
import dev.jarvis.model.Actor;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.WorkSession;
import java.util.Optional;

/**
 * Who belongs to a WorkSession: the Actors of its {@code human_worker_id} and of its {@code
 * agent_worker_id}, and no one else. Only members read it (getWorkSession, exportEvidenceManifest),
 * mutate it, create it (its creator is an Actor of one of its two Workers) or report an outcome on
 * it; anyone else is refused {@code unauthorized_actor}, before the WorkSession's state is looked
 * at. A Policy grants no membership: v0.1 gives a Policy no field naming further Workers, and a
 * host that wants reviewers beyond the WorkSession's human Worker registers them as Actors of that
 * Worker.
 *
 * <p>No existence oracle: a WorkSession that does not exist has no members, so its refusal and a
 * non-member's refusal of an existing one are the same {@link #notAMember} (status, {@code
 * error_id}, pointer, reason and remediation), and an outsider cannot tell the two apart.
 */
final class Membership {

  /**
   * The one refusal for a WorkSession the caller may not see, whether it exists or not: the same
   * bytes but the {@code trace_id}, its reason true in both cases and free of the id.
   */
  static ProtocolRefusal notAMember() {
    return refuse(
        ProtocolErrorId.UNAUTHORIZED_ACTOR,
        "header",
        JarvisHeaders.ACTOR_ID,
        "The Actor is a member of no WorkSession of this id on this host.");
  }

  /**
   * Refuses with {@link #notAMember} unless {@code actorId} is an Actor of one of the stored
   * WorkSession's two Workers.
   */
  void checkStored(JsonNode workSession, String actorId, CallRecords records) {
    if (!isMember(workSession, actorId, records)) {
      throw notAMember();
    }
  }

  /** Whether {@code actorId} is an Actor of one of the WorkSession's two Workers. */
  static boolean isMember(JsonNode workSession, String actorId, CallRecords records) {
    String worker =
        records
            .body(RecordKind.ACTOR, actorId)
            .map(a -> a.path(Actor.JSON_PROPERTY_WORKER_ID).asText())
            .orElse("");
    return worker.equals(workSession.path(WorkSession.JSON_PROPERTY_HUMAN_WORKER_ID).asText())
        || worker.equals(workSession.path(WorkSession.JSON_PROPERTY_AGENT_WORKER_ID).asText());
  }

  /**
   * Refuses unless {@code actorId} is an Actor of one of the proposed WorkSession's two Workers
   * (createWorkSession: the body is the caller's own, so the refusal may say why).
   */
  void check(JsonNode workSession, String actorId, CallRecords records) {
    if (!isMember(workSession, actorId, records)) {
      throw refuse(
          ProtocolErrorId.UNAUTHORIZED_ACTOR,
          "header",
          JarvisHeaders.ACTOR_ID,
          "The Actor is not an Actor of this WorkSession's human or agent Worker.");
    }
  }

  /** An Actor record's {@code type}. */
  static Optional<ActorType> typeOf(JsonNode actor) {
    try {
      return Optional.of(ActorType.fromValue(actor.path(Actor.JSON_PROPERTY_TYPE).asText()));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
