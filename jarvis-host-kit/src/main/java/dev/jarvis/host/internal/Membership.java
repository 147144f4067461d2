package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.host.RecordKind;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.ProtocolErrorId;
import java.util.Optional;

/**
 * Who belongs to a WorkSession: the Actors of its {@code human_worker_id} and of its {@code
 * agent_worker_id}, and no one else. Only members read it (getWorkSession, exportEvidenceManifest),
 * mutate it, create it (its creator is an Actor of one of its two Workers) or report an outcome on
 * it; anyone else is refused {@code unauthorized_actor}, before the WorkSession's state is looked
 * at, so a refusal tells an outsider nothing about it. A Policy grants no membership: v0.1 gives a
 * Policy no field naming further Workers, and a host that wants reviewers beyond the WorkSession's
 * human Worker registers them as Actors of that Worker.
 */
final class Membership {

  /**
   * Refuses unless {@code actorId} is an Actor of one of the WorkSession's two Workers, reading the
   * Actor as the call reads it.
   */
  void check(JsonNode workSession, String actorId, CallRecords records) {
    String worker =
        records.body(RecordKind.ACTOR, actorId).map(a -> a.path("worker_id").asText()).orElse("");
    if (!worker.equals(workSession.path("human_worker_id").asText())
        && !worker.equals(workSession.path("agent_worker_id").asText())) {
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
      return Optional.of(ActorType.fromValue(actor.path("type").asText()));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
