package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.exchange.ExpectedCursor;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.host.ChainWrite;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.ProtocolRefusal;
import dev.jarvis.host.RecordWrite;
import dev.jarvis.host.SessionWithRecords;
import dev.jarvis.host.StoredResponse;
import dev.jarvis.host.StoredSession;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.WorkSession;
import dev.jarvis.model.WorkSessionStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Runs WorkSession mutations: under the WorkSession's lock, has the member's touch read ({@link
 * MemberTouch}: membership, then the expiry of Requests whose time has come), checks the seal, the
 * cursor (expected revision, then previous hash), the status and the Takeover lock, lets the
 * operation's rule decide the effect, keeps ids to their WorkSession ({@link RecordScope}) and
 * appends exactly one event together with the records and the idempotency record, in one store
 * commit whose condition is the cursor the rules saw.
 */
final class SessionMutations {

  private static final Set<WorkSessionStatus> LOCKED_STATUSES =
      EnumSet.of(WorkSessionStatus.TAKEOVER, WorkSessionStatus.RECONCILING);

  private final HostConfig config;
  private final ProtocolRules rules;
  private final ResponseFactory responses;
  private final KeyedLocks<String> locks;
  private final PrincipalLimitRules limits;
  private final MemberTouch touch;

  SessionMutations(
      HostConfig config,
      ProtocolRules rules,
      ResponseFactory responses,
      KeyedLocks<String> locks,
      PrincipalLimitRules limits,
      MemberTouch touch) {
    this.config = config;
    this.rules = rules;
    this.responses = responses;
    this.locks = locks;
    this.limits = limits;
    this.touch = touch;
  }

  /** createWorkSession: the genesis event and the snapshot at revision 1. */
  StoredResponse genesis(ProtocolCall call, GenesisRule rule, KeyedCommit commit) {
    JsonNode body = call.body();
    String id = body.path(WorkSession.JSON_PROPERTY_ID).asText();
    // The creator's lock first, then the WorkSession's: the creator's count holds to the commit.
    return limits.forCreator(call, () -> genesisUnderLock(call, rule, commit, body, id));
  }

  private StoredResponse genesisUnderLock(
      ProtocolCall call, GenesisRule rule, KeyedCommit commit, JsonNode body, String id) {
    return locks.with(
        id,
        () -> {
          rule.check(call);
          Instant now = config.clock().instant();
          ObjectNode event =
              EventChain.next(
                  ChainCursor.GENESIS,
                  HostEvents.draft(
                      id, 1, ProtocolRules.GENESIS_EVENT, call.actorId(), now, "work_session", id));
          ChainCursor cursor =
              ChainCursor.GENESIS.advance(
                  event.path(JarvisEvent.JSON_PROPERTY_EVENT_HASH).asText());
          ObjectNode snapshot = ((ObjectNode) body).deepCopy();
          snapshot.put(WorkSession.JSON_PROPERTY_STATUS, ProtocolRules.GENESIS_STATUS);
          snapshot.put(WorkSession.JSON_PROPERTY_EVENT_LOG_REF, "event-log:" + id);
          HostEvents.stamp(snapshot, cursor, now);
          return commit.commit(
              Mutation.of(
                  new ChainWrite.Genesis(new StoredSession(snapshot, false), event), List.of()),
              responses.success(
                  call.operation().successStatus(),
                  ResponseFactory.bytes(snapshot),
                  Optional.of(cursor)),
              () -> GenesisRules.taken(id));
        });
  }

  /** A WorkSession-scoped mutation. */
  StoredResponse scoped(ProtocolCall call, KeyedCommit commit) {
    String id = call.workSessionId().orElseThrow();
    ScopedOperation operation =
        rules
            .scoped(call.operationId())
            .orElseThrow(() -> new IllegalStateException("no rules for " + call.operationId()));
    // The target's lock first, then the WorkSession's: nothing takes them the other way round.
    return limits.forTarget(
        call, () -> locks.with(id, () -> underLock(call, id, operation, commit)));
  }

  private StoredResponse underLock(
      ProtocolCall call, String id, ScopedOperation operation, KeyedCommit commit) {
    CallRecords reads = new CallRecords(config.stores().records(), call);
    Set<String> asked = operation.rule().eventIdsAsked(call);
    SessionWithRecords found = touch.read(call, id, reads, asked);
    StoredSession session = touch.expireDue(found, reads);
    // What was read of the chain holds while the chain is as read: an expiry written since (or
    // another instance's event, seen by the re-read after a conflicting expiry) asks again.
    boolean asRead = session.cursor().equals(found.session().cursor());
    if (session.sealed()) {
      throw refuse(
          ProtocolErrorId.SEALED_WORK_SESSION_MUTATION,
          "work_session",
          "work_session_id",
          "The WorkSession was exported and is sealed.");
    }
    ChainCursor cursor = session.cursor();
    checkCursor(call.exchange().cursor().orElseThrow(), cursor);
    Optional<String> eventType = rules.eventType(call.operationId(), call.body());
    WorkSessionLifecycle.checkOpen(session.status(), eventType);
    SessionView view =
        new SessionView(
            session,
            config.stores().records(),
            reads,
            config.stores().sessions(),
            config.defaultPolicy(),
            asRead ? asked : Set.of(),
            asRead ? found.heldEventIds() : Set.of());
    if (LOCKED_STATUSES.contains(WorkSessionStatus.fromValue(session.status()))
        && view.isAgent(call.actorId())) {
      throw refuse(
          ProtocolErrorId.STALE_TAKEOVER_EPOCH,
          "takeover",
          "/lock_epoch",
          "A HumanWorker has taken over; AgentWorker writes wait until every Takeover is resumed.");
    }
    Effect effect = operation.rule().apply(call, view);
    RecordScope.check(effect.records(), id, config.stores());
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
              HostEvents.draft(
                  id,
                  cursor.revision() + 1,
                  effect.eventType(),
                  call.actorId(),
                  now,
                  effect.objectType(),
                  effect.objectId()));
    }
    ChainCursor next = cursor.advance(event.path(JarvisEvent.JSON_PROPERTY_EVENT_HASH).asText());
    ObjectNode snapshot = session.snapshot().deepCopy();
    effect.nextStatus().ifPresent(status -> snapshot.put(WorkSession.JSON_PROPERTY_STATUS, status));
    effect.listedIn().ifPresent(field -> addRef(snapshot, field, effect.objectId()));
    HostEvents.stamp(snapshot, next, now);
    List<RecordWrite> anchored = new ArrayList<>();
    // Records updated by this event (a resolved Request) keep the anchor of the event that made
    // them.
    effect
        .records()
        .forEach(
            r ->
                anchored.add(RecordWrite.put(r.recordedAt().isPresent() ? r : r.recordedAt(next))));
    return commit.commit(
        Mutation.of(
            new ChainWrite.Append(id, cursor, event, new StoredSession(snapshot, false)), anchored),
        responses.success(
            call.operation().successStatus(), effect.responseBody(), Optional.of(next)),
        () -> {
          // Another host instance sharing the store got there first: it recorded one of these
          // ids in another WorkSession (the store's host-wide id key), refused as the id's reuse,
          // or it advanced this chain.
          RecordScope.check(effect.records(), id, config.stores());
          return refuse(
              ProtocolErrorId.STALE_WORK_SESSION_REVISION,
              "header",
              JarvisHeaders.EXPECTED_WORK_SESSION_REVISION,
              "The WorkSession moved on while this request was checked.");
        });
  }

  private static void checkCursor(ExpectedCursor expectedCursor, ChainCursor cursor) {
    long expected = expectedCursor.revision().value();
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
    String previous = expectedCursor.previousEventHash().value();
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

  private static void addRef(ObjectNode snapshot, String field, String id) {
    if (!snapshot.path(field).isArray()) {
      snapshot.putArray(field);
    }
    snapshot.withArray(field).add(id);
  }

  /** createWorkSession's own checks, run under the lock before the genesis event is built. */
  @FunctionalInterface
  interface GenesisRule {
    void check(ProtocolCall call);
  }
}
