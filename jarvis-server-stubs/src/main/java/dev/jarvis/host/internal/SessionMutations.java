package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.canonical.Sha256Hash;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.headers.MutationHeaders;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.ProtocolRefusal;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.StoredResponse;
import dev.jarvis.host.StoredSession;
import dev.jarvis.model.ProtocolErrorId;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Runs WorkSession mutations: under the WorkSession's lock, checks the seal, the cursor (expected
 * revision, then previous hash), the status and the Takeover lock, lets the operation's rules
 * decide the effect, and appends exactly one event together with the records, in one store write.
 */
final class SessionMutations {

  private static final Set<String> LOCKED_STATUSES = Set.of("takeover", "reconciling");

  private final HostConfig config;
  private final ActorAuthority authority;
  private final ResponseFactory responses;
  private final Map<String, ScopedRule> rules;
  private final KeyedLocks<String> locks = new KeyedLocks<>();

  SessionMutations(
      HostConfig config,
      ActorAuthority authority,
      ResponseFactory responses,
      Map<String, ScopedRule> rules) {
    this.config = config;
    this.authority = authority;
    this.responses = responses;
    this.rules = Map.copyOf(rules);
  }

  /** createWorkSession: the genesis event and the snapshot at revision 1. */
  StoredResponse genesis(ProtocolCall call, GenesisRule rule) {
    JsonNode body = call.body();
    String id = body.path("id").asText();
    return locks.with(
        id,
        () -> {
          config
              .stores()
              .sessions()
              .find(id)
              .ifPresent(
                  existing -> {
                    throw refuse(
                        ProtocolErrorId.STALE_WORK_SESSION_REVISION,
                        "header",
                        JarvisHeaders.EXPECTED_WORK_SESSION_REVISION,
                        "WorkSession "
                            + id
                            + " exists already, at revision "
                            + existing.cursor().revision()
                            + ".");
                  });
          rule.check(call);
          Instant now = config.clock().instant();
          ObjectNode event =
              EventChain.next(
                  ChainCursor.GENESIS,
                  draft(id, 1, EventTypes.GENESIS, call.actorId(), now, "work_session", id));
          ChainCursor cursor = ChainCursor.GENESIS.advance(event.path("event_hash").asText());
          ObjectNode snapshot = ((ObjectNode) body).deepCopy();
          snapshot.put("status", EventTypes.genesisState().path("accepted_status").asText());
          snapshot.put("event_log_ref", "event-log:" + id);
          stamp(snapshot, cursor, now);
          if (!config.stores().sessions().create(new StoredSession(snapshot, false), event)) {
            throw refuse(
                ProtocolErrorId.STALE_WORK_SESSION_REVISION,
                "header",
                JarvisHeaders.EXPECTED_WORK_SESSION_REVISION,
                "WorkSession " + id + " exists already.");
          }
          return responses.success(
              call.operation().successStatus(),
              ResponseFactory.bytes(snapshot),
              Optional.of(cursor));
        });
  }

  /** A WorkSession-scoped mutation. */
  StoredResponse scoped(ProtocolCall call) {
    String id = call.workSessionId().orElseThrow();
    ScopedRule rule = rules.get(call.operationId());
    if (rule == null) {
      throw new IllegalStateException("no rules for " + call.operationId());
    }
    return locks.with(id, () -> underLock(call, id, rule));
  }

  private StoredResponse underLock(ProtocolCall call, String id, ScopedRule rule) {
    StoredSession session =
        config
            .stores()
            .sessions()
            .find(id)
            .orElseThrow(
                () ->
                    refuse(
                        ProtocolErrorId.UNKNOWN_STATE,
                        "work_session",
                        "work_session_id",
                        "No WorkSession " + id + " exists on this host."));
    if (session.sealed()) {
      throw refuse(
          ProtocolErrorId.SEALED_WORK_SESSION_MUTATION,
          "work_session",
          "work_session_id",
          "The WorkSession was exported and is sealed.");
    }
    ChainCursor cursor = session.cursor();
    checkCursor(call.mutation(), cursor);
    Optional<String> eventType = EventTypes.of(call.operationId(), call.body());
    WorkSessionLifecycle.checkOpen(session.status(), eventType);
    if (LOCKED_STATUSES.contains(session.status())
        && authority.typeOf(call.actorId()).filter("agent"::equals).isPresent()) {
      throw refuse(
          ProtocolErrorId.STALE_TAKEOVER_EPOCH,
          "takeover",
          "/lock_epoch",
          "A HumanWorker has taken over; AgentWorker writes wait until the Takeover is resumed.");
    }
    Effect effect =
        rule.apply(
            call,
            new SessionView(
                session,
                config.stores().records(),
                config.stores().sessions(),
                config.defaultPolicy()));
    Instant now = config.clock().instant();
    JsonNode event;
    if (effect.event().isPresent()) {
      event = effect.event().get();
      EventChain.checkNext(cursor, event)
          .ifPresent(
              violation -> {
                throw new ProtocolRefusal(violation);
              });
    } else {
      event =
          EventChain.next(
              cursor,
              draft(
                  id,
                  cursor.revision() + 1,
                  effect.eventType(),
                  call.actorId(),
                  now,
                  effect.objectType(),
                  effect.objectId()));
    }
    ChainCursor next = cursor.advance(event.path("event_hash").asText());
    ObjectNode snapshot = session.snapshot().deepCopy();
    effect.nextStatus().ifPresent(status -> snapshot.put("status", status));
    if (call.operationId().equals("createLearningRecord")) {
      addRef(snapshot, "learning_record_refs", effect.objectId());
    }
    stamp(snapshot, next, now);
    List<StoredRecord> anchored = new ArrayList<>();
    // Records updated by this event (a resolved Request) keep the anchor of the event that made
    // them.
    effect
        .records()
        .forEach(r -> anchored.add(r.recordedAt().isPresent() ? r : r.recordedAt(next)));
    boolean appended =
        config
            .stores()
            .sessions()
            .append(id, cursor, event, new StoredSession(snapshot, false), anchored);
    if (!appended) {
      // Another host instance sharing the store advanced the chain first.
      throw refuse(
          ProtocolErrorId.STALE_WORK_SESSION_REVISION,
          "header",
          JarvisHeaders.EXPECTED_WORK_SESSION_REVISION,
          "The WorkSession moved on while this request was checked.");
    }
    return responses.success(
        call.operation().successStatus(), effect.responseBody(), Optional.of(next));
  }

  private static void checkCursor(MutationHeaders headers, ChainCursor cursor) {
    long expected = headers.expectedRevision().orElseThrow().value();
    if (expected != cursor.revision()) {
      throw refuse(
          ProtocolErrorId.STALE_WORK_SESSION_REVISION,
          "header",
          JarvisHeaders.EXPECTED_WORK_SESSION_REVISION,
          "Expected revision "
              + expected
              + ", but the WorkSession is at revision "
              + cursor.revision()
              + ".");
    }
    String previous = headers.previousEventHash().orElseThrow().value();
    if (!previous.equals(cursor.lastEventHash())) {
      throw refuse(
          ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH,
          "header",
          JarvisHeaders.PREVIOUS_EVENT_HASH,
          "Jarvis-Previous-Event-Hash is not the WorkSession's last event hash at revision "
              + cursor.revision()
              + ".");
    }
  }

  /** The snapshot's host-owned cursor fields after an event. */
  private static void stamp(ObjectNode snapshot, ChainCursor cursor, Instant now) {
    snapshot.put("revision", cursor.revision());
    snapshot.put("last_event_hash", cursor.lastEventHash());
    snapshot.put("updated_at", Timestamps.format(now));
  }

  private static void addRef(ObjectNode snapshot, String field, String id) {
    if (!snapshot.path(field).isArray()) {
      snapshot.putArray(field);
    }
    snapshot.withArray(field).add(id);
  }

  private static ObjectNode draft(
      String workSessionId,
      long sequence,
      String type,
      String actorId,
      Instant now,
      String objectType,
      String objectId) {
    ObjectNode event = JsonNodeFactory.instance.objectNode();
    event.put("id", eventId(workSessionId, sequence));
    event.put("type", type);
    event.put("work_session_id", workSessionId);
    event.put("actor_id", actorId);
    event.put("timestamp", Timestamps.format(now));
    ObjectNode payload = event.putObject("payload");
    payload.put("object_type", objectType);
    payload.put("object_id", objectId);
    payload.put("action", type.substring(type.indexOf('.') + 1));
    return event;
  }

  /** {@code <work_session_id>.event.<sequence>}, or a hash of it where that exceeds a JarvisId. */
  static String eventId(String workSessionId, long sequence) {
    String readable = workSessionId + ".event." + sequence;
    if (readable.length() <= 160) {
      return readable;
    }
    String hash =
        Sha256Hash.of(workSessionId.getBytes(StandardCharsets.UTF_8)).text().substring(7, 31);
    return "event-" + hash + "." + sequence;
  }

  /** createWorkSession's own checks, run under the lock before the genesis event is built. */
  @FunctionalInterface
  interface GenesisRule {
    void check(ProtocolCall call);
  }
}
