package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.host.ActorWithWorker;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.Principal;
import dev.jarvis.host.RecordStore;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.model.Actor;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.EventAuthority;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.Worker;
import dev.jarvis.model.WorkerType;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;

/**
 * Whether the caller, acting as the Actor named by {@code Jarvis-Actor-Id}, may perform an
 * operation. Every refusal is {@code unauthorized_actor}.
 *
 * <ul>
 *   <li>The caller's HostAuth {@link Principal} may act as that Actor (checked first, by {@link
 *       #checkPrincipal}).
 *   <li>registerWorker and registerActor: a principal that may administer, acting as the configured
 *       admin Actor, which is the host's own and needs no registration (the bootstrap). Naming the
 *       admin Actor without an administering principal grants nothing.
 *   <li>Everything else: a registered Actor whose Worker is registered, valid now ({@code
 *       valid_from} ≤ now &lt; {@code valid_until}, against the host clock), of a type the
 *       operation admits ({@link ScopedOperation#admits}; a human Actor also of a human Worker).
 *   <li>WorkSession mutations append an event: {@code event_authority.can_append_events} must be
 *       true and, where {@code allowed_event_types} is given, contain the event's type.
 * </ul>
 */
public final class ActorAuthority {

  private static final Set<String> REGISTRATION =
      Set.of(OperationIds.REGISTER_WORKER, OperationIds.REGISTER_ACTOR);

  private final HostConfig config;
  private final RecordStore records;
  private final ProtocolRules rules;

  /**
   * Says where the answer lies without naming any Actor: the Actors a credential covers are the
   * operator's to tell (its entry in the credentials file), never the refusal's.
   */
  static final String NOT_THIS_ACTOR =
      "The credential may not act as this Actor. A credential acts only as the Actors the host"
          + " binds it to (the operator's credentials file, docs/host.md \"Credentials file\");"
          + " send the Jarvis-Actor-Id it was issued for, or ask the operator which that is.";

  public ActorAuthority(HostConfig config, RecordStore records, ProtocolRules rules) {
    this.config = config;
    this.records = records;
    this.rules = rules;
  }

  /**
   * Refuses a {@code Jarvis-Actor-Id} the principal may not act as: the first check after HostAuth,
   * before any header, body or state is read.
   */
  public static void checkPrincipal(Principal principal, Optional<String> actorId) {
    if (actorId.isPresent() && !principal.mayActAs(actorId.get().strip())) {
      throw denied(NOT_THIS_ACTOR);
    }
  }

  /**
   * Refuses unless the caller may perform {@code operation} as {@code actorId} with this body;
   * answers the Actor's record it read (none for a registration, whose admin Actor is no record).
   */
  public Optional<JsonNode> check(
      ProtocolOperation operation, Principal principal, String actorId, JsonNode body) {
    String op = operation.operationId();
    if (!principal.mayActAs(actorId)) {
      throw denied(NOT_THIS_ACTOR);
    }
    if (REGISTRATION.contains(op)) {
      if (!principal.admin() || !config.adminActorId().equals(actorId)) {
        throw denied(
            "Only an administering credential, acting as the host's admin Actor, may register"
                + " Workers and Actors.");
      }
      return Optional.empty();
    }
    // One read for both: every request an Actor makes needs its Worker too.
    ActorWithWorker registered =
        records
            .actorWithWorker(actorId)
            .orElseThrow(() -> denied("The Actor is not registered with this host."));
    JsonNode actor = registered.actor().body();
    JsonNode worker =
        registered
            .worker()
            .map(StoredRecord::body)
            .orElseThrow(() -> denied("The Actor's Worker is not registered with this host."));
    Optional<String> refusal =
        whyNot(op, operation.operationClass().needsCursor(), actor, worker, body);
    if (refusal.isPresent()) {
      throw denied(refusal.get());
    }
    return Optional.of(actor);
  }

  /**
   * Whether a human Worker has an Actor able to answer a Request, now: an Actor of that Worker that
   * {@link #whyNot} lets record a Review (a human Actor, valid now, allowed to append {@code
   * review.recorded}). A WorkSession is opened only for a human someone can answer for. {@code
   * creator}, the Actor the call already read, is asked first: when it is such an Actor (the human
   * opening its own WorkSession) the Worker's Actors are not read from the store.
   */
  boolean hasReviewer(String humanWorkerId, JsonNode humanWorker, JsonNode creator) {
    if (humanWorkerId.equals(creator.path(Actor.JSON_PROPERTY_WORKER_ID).asText())
        && canReview(creator, humanWorker)) {
      return true;
    }
    for (StoredRecord actor : records.actorsOf(humanWorkerId)) {
      if (canReview(actor.body(), humanWorker)) {
        return true;
      }
    }
    return false;
  }

  private boolean canReview(JsonNode actor, JsonNode humanWorker) {
    return whyNot(OperationIds.RECORD_REVIEW, true, actor, humanWorker, actor).isEmpty();
  }

  /**
   * Why the registered {@code actor} of {@code worker} may not perform {@code op} with {@code body}
   * now, or empty if it may: its validity against the host clock, its event authority where the
   * operation appends an event, and the Actor types the operation admits. The one statement of
   * these rules, for the caller ({@link #check}) and for an Actor the host asks about ({@link
   * #hasReviewer}).
   */
  private Optional<String> whyNot(
      String op, boolean appendsEvent, JsonNode actor, JsonNode worker, JsonNode body) {
    Instant now = config.clock().instant();
    if (Timestamps.of(actor.path(Actor.JSON_PROPERTY_VALID_FROM))
        .filter(now::isBefore)
        .isPresent()) {
      return Optional.of("The Actor is not valid yet.");
    }
    if (Timestamps.of(actor.path(Actor.JSON_PROPERTY_VALID_UNTIL))
        .filter(until -> !now.isBefore(until))
        .isPresent()) {
      return Optional.of("The Actor is no longer valid.");
    }
    if (appendsEvent) {
      JsonNode authority = actor.path(Actor.JSON_PROPERTY_EVENT_AUTHORITY);
      if (!authority.path(EventAuthority.JSON_PROPERTY_CAN_APPEND_EVENTS).asBoolean(false)) {
        return Optional.of("The Actor's event_authority does not allow appending events.");
      }
      JsonNode allowed = authority.path(EventAuthority.JSON_PROPERTY_ALLOWED_EVENT_TYPES);
      Optional<String> type = rules.eventType(op, body);
      if (allowed.isArray() && type.isPresent() && !contains(allowed, type.get())) {
        return Optional.of("The Actor's allowed_event_types do not include " + type.get() + ".");
      }
    }
    Set<ActorType> admitted = rules.admits(op);
    Optional<ActorType> type = Membership.typeOf(actor);
    boolean humanOnly = admitted.equals(Set.of(ActorType.HUMAN));
    if (type.filter(admitted::contains).isEmpty()
        || (humanOnly
            && !WorkerType.HUMAN
                .getValue()
                .equals(worker.path(Worker.JSON_PROPERTY_TYPE).asText()))) {
      return Optional.of(
          op + " admits " + admitted + " Actors" + (humanOnly ? " of a human Worker" : "") + ".");
    }
    return Optional.empty();
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
