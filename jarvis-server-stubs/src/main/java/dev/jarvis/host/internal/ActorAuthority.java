package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.RecordStore;
import dev.jarvis.model.ProtocolErrorId;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * Whether the Actor named by {@code Jarvis-Actor-Id} may perform an operation. Every refusal is
 * {@code unauthorized_actor}.
 *
 * <ul>
 *   <li>registerWorker and registerActor: only the configured admin Actor, which is the host's own
 *       and needs no registration (the bootstrap).
 *   <li>Everything else: a registered Actor whose Worker is registered, valid now ({@code
 *       valid_from} ≤ now &lt; {@code valid_until}, against the host clock).
 *   <li>WorkSession mutations append an event: {@code event_authority.can_append_events} must be
 *       true and, where {@code allowed_event_types} is given, contain the event's type.
 *   <li>recordReview and recordTakeover: a human Actor of a human Worker.
 * </ul>
 */
public final class ActorAuthority {

  private static final Set<String> REGISTRATION = Set.of("registerWorker", "registerActor");
  private static final Set<String> HUMAN_ONLY = Set.of("recordReview", "recordTakeover");

  private final HostConfig config;
  private final RecordStore records;

  public ActorAuthority(HostConfig config, RecordStore records) {
    this.config = config;
    this.records = records;
  }

  /** Refuses unless {@code actorId} may perform {@code operation} with this body. */
  public void check(ProtocolOperation operation, String actorId, JsonNode body) {
    String op = operation.operationId();
    if (REGISTRATION.contains(op)) {
      if (!config.adminActorId().equals(actorId)) {
        throw denied("Only the host's admin Actor may register Workers and Actors.");
      }
      return;
    }
    JsonNode actor =
        records
            .body(RecordKind.ACTOR, actorId)
            .orElseThrow(() -> denied("The Actor is not registered with this host."));
    JsonNode worker =
        records
            .body(RecordKind.WORKER, actor.path("worker_id").asText())
            .orElseThrow(() -> denied("The Actor's Worker is not registered with this host."));
    Instant now = config.clock().instant();
    Timestamps.of(actor.path("valid_from"))
        .filter(from -> now.isBefore(from))
        .ifPresent(
            from -> {
              throw denied("The Actor is not valid yet.");
            });
    Timestamps.of(actor.path("valid_until"))
        .filter(until -> !now.isBefore(until))
        .ifPresent(
            until -> {
              throw denied("The Actor is no longer valid.");
            });
    if (operation.operationClass().needsCursor()) {
      JsonNode authority = actor.path("event_authority");
      if (!authority.path("can_append_events").asBoolean(false)) {
        throw denied("The Actor's event_authority does not allow appending events.");
      }
      JsonNode allowed = authority.path("allowed_event_types");
      Optional<String> type = EventTypes.of(op, body);
      if (allowed.isArray() && type.isPresent() && !contains(allowed, type.get())) {
        throw denied("The Actor's allowed_event_types do not include " + type.get() + ".");
      }
    }
    if (HUMAN_ONLY.contains(op)
        && !("human".equals(actor.path("type").asText())
            && "human".equals(worker.path("type").asText()))) {
      throw denied("Only a human Worker's human Actor may review or take over.");
    }
  }

  /** An Actor's type ({@code human}, {@code agent}, {@code service}, {@code tool}), if known. */
  public Optional<String> typeOf(String actorId) {
    return records.body(RecordKind.ACTOR, actorId).map(a -> a.path("type").asText());
  }

  private static boolean contains(JsonNode array, String value) {
    for (JsonNode item : array) {
      if (value.equals(item.asText())) {
        return true;
      }
    }
    return false;
  }

  private static RuntimeException denied(String reason) {
    return refuse(ProtocolErrorId.UNAUTHORIZED_ACTOR, "header", JarvisHeaders.ACTOR_ID, reason);
  }
}
