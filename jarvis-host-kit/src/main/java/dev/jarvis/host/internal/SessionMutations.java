package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.canonical.Sha256Hash;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.exchange.ExpectedCursor;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.notification.RequestNotification;
import dev.jarvis.host.ChainWrite;
import dev.jarvis.host.CommitHook;
import dev.jarvis.host.CommitResult;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.HostWrittenEvent;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.ProtocolRefusal;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.RecordWrite;
import dev.jarvis.host.SessionWithRecords;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.StoredResponse;
import dev.jarvis.host.StoredSession;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.JarvisEventPayload;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.WorkSession;
import dev.jarvis.model.WorkSessionStatus;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Runs WorkSession mutations: under the WorkSession's lock, checks membership, writes the expiry of
 * Requests whose time has come, checks the seal, the cursor (expected revision, then previous
 * hash), the status and the Takeover lock, lets the operation's rule decide the effect, keeps ids
 * to their WorkSession ({@link RecordScope}) and appends exactly one event together with the
 * records and the idempotency record, in one store commit whose condition is the cursor the rules
 * saw.
 */
final class SessionMutations {

  private static final Set<WorkSessionStatus> LOCKED_STATUSES =
      EnumSet.of(WorkSessionStatus.TAKEOVER, WorkSessionStatus.RECONCILING);

  private final HostConfig config;
  private final ProtocolRules rules;
  private final Membership membership;
  private final ResponseFactory responses;
  private final KeyedLocks<String> locks;
  private final PrincipalLimitRules limits;

  SessionMutations(
      HostConfig config,
      ProtocolRules rules,
      Membership membership,
      ResponseFactory responses,
      KeyedLocks<String> locks,
      PrincipalLimitRules limits) {
    this.config = config;
    this.rules = rules;
    this.membership = membership;
    this.responses = responses;
    this.locks = locks;
    this.limits = limits;
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
                  draft(
                      id, 1, ProtocolRules.GENESIS_EVENT, call.actorId(), now, "work_session", id));
          ChainCursor cursor =
              ChainCursor.GENESIS.advance(
                  event.path(JarvisEvent.JSON_PROPERTY_EVENT_HASH).asText());
          ObjectNode snapshot = ((ObjectNode) body).deepCopy();
          snapshot.put(WorkSession.JSON_PROPERTY_STATUS, ProtocolRules.GENESIS_STATUS);
          snapshot.put(WorkSession.JSON_PROPERTY_EVENT_LOG_REF, "event-log:" + id);
          stamp(snapshot, cursor, now);
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

  /**
   * The WorkSession a member may see, its due Request expiries written first. The caller holds the
   * WorkSession's lock.
   */
  StoredSession memberView(ProtocolCall call, String id) {
    return memberView(call, id, new CallRecords(config.stores().records(), call));
  }

  private StoredSession memberView(ProtocolCall call, String id, CallRecords reads) {
    SessionWithRecords found = memberRead(call, id, reads, Set.of());
    return expireDue(found.session(), found.records(), reads);
  }

  /**
   * Writes the due Request expiries of WorkSession {@code id} as the host's own work, with no
   * member asking: what a member's next touch would write, now (the expiry sweep). Under the
   * WorkSession's lock, through the same conditional commits: where another host instance moved the
   * chain first, this one writes nothing (that instance writes the expiry, or a later sweep finds
   * it done).
   *
   * @return the {@code request.expired} events this call wrote
   */
  int expireDueAsHost(String id) {
    return locks.with(
        id,
        () -> {
          CallRecords reads = new CallRecords(config.stores().records());
          Optional<SessionWithRecords> found =
              config
                  .stores()
                  .findWithRecords(
                      id, RecordKind.REQUEST, RequestLifecycle.OPEN_STATUSES, Set.of());
          if (found.isEmpty()) {
            return 0;
          }
          int[] written = {0};
          expireDue(found.get().session(), found.get().records(), reads, () -> written[0]++);
          return written[0];
        });
  }

  /**
   * The WorkSession and its open Requests in one read (the expiry check needs them each time), with
   * which of {@code eventIds} its chain holds; refused unless the caller is a member.
   */
  private SessionWithRecords memberRead(
      ProtocolCall call, String id, CallRecords reads, Set<String> eventIds) {
    SessionWithRecords found =
        config
            .stores()
            .findWithRecords(id, RecordKind.REQUEST, RequestLifecycle.OPEN_STATUSES, eventIds)
            .orElseThrow(Membership::notAMember);
    membership.checkStored(found.session().snapshot(), call.actorId(), reads);
    return found;
  }

  private StoredResponse underLock(
      ProtocolCall call, String id, ScopedOperation operation, KeyedCommit commit) {
    CallRecords reads = new CallRecords(config.stores().records(), call);
    Set<String> asked = operation.rule().eventIdsAsked(call);
    SessionWithRecords found = memberRead(call, id, reads, asked);
    StoredSession session = expireDue(found.session(), found.records(), reads);
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
    if (OperationIds.CREATE_REQUEST.equals(call.operationId())) {
      // After the Request's own rules, so only a valid Request of a member meets the host's limit.
      limits.checkTarget(call);
    }
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
              draft(
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
    if (call.operationId().equals(OperationIds.CREATE_LEARNING_RECORD)) {
      addRef(snapshot, "learning_record_refs", effect.objectId());
    }
    stamp(snapshot, next, now);
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

  private SessionView view(StoredSession session, CallRecords reads) {
    return new SessionView(
        session,
        config.stores().records(),
        reads,
        config.stores().sessions(),
        config.defaultPolicy());
  }

  /**
   * Writes a {@value RequestLifecycle#EXPIRED_EVENT} event for each open Request whose {@code
   * expires_at} the host clock has reached, one event each, and answers the WorkSession after them.
   * Expiry is the host's own write, due whoever touches the WorkSession next: it stands even when
   * the request that found it is then refused (its cursor no longer being the WorkSession's).
   * Sealed, terminal and closed WorkSessions take no event, so their Requests stay as they were.
   */
  private StoredSession expireDue(
      StoredSession session, List<StoredRecord> openRequests, CallRecords reads) {
    return expireDue(session, openRequests, reads, () -> {});
  }

  /** As above, telling {@code wrote} of each expiry this host committed. */
  private StoredSession expireDue(
      StoredSession session, List<StoredRecord> openRequests, CallRecords reads, Runnable wrote) {
    if (session.sealed()
        || WorkSessionLifecycle.TERMINAL.contains(session.status())
        || WorkSessionLifecycle.CLOSED.equals(session.status())) {
      return session;
    }
    Instant now = config.clock().instant();
    StoredSession current = session;
    for (StoredRecord request : openRequests) {
      if (!RequestLifecycle.isDue(request, now)) {
        continue;
      }
      ChainCursor cursor = current.cursor();
      ObjectNode draft =
          draft(
              current.id(),
              cursor.revision() + 1,
              RequestLifecycle.EXPIRED_EVENT,
              config.adminActorId(),
              now,
              RequestRule.OBJECT,
              request.id());
      ((ObjectNode) draft.path(JarvisEvent.JSON_PROPERTY_PAYLOAD))
          .put(
              JarvisEventPayload.JSON_PROPERTY_SUMMARY,
              RequestLifecycle.fallbackSummary(request.body()));
      ObjectNode event = EventChain.next(cursor, draft);
      ChainCursor next = cursor.advance(event.path(JarvisEvent.JSON_PROPERTY_EVENT_HASH).asText());
      StoredRecord expired =
          RequestLifecycle.expired(request, event.path(JarvisEvent.JSON_PROPERTY_ID).asText(), now);
      ObjectNode snapshot = current.snapshot().deepCopy();
      RequestLifecycle.statusAfterClosing(view(current, reads), request.id())
          .ifPresent(status -> snapshot.put(WorkSession.JSON_PROPERTY_STATUS, status.getValue()));
      stamp(snapshot, next, now);
      StoredSession updated = new StoredSession(snapshot, false);
      // One Mutation per expiry, no idempotency claim: each is the host's own event, committed on
      // the cursor the previous one left, so a conflict stops at a whole expiry.
      HostWrittenEvent written = new HostWrittenEvent(current.id(), event, List.of(expired));
      Mutation unit =
          Mutation.of(
              new ChainWrite.Append(current.id(), cursor, event, updated),
              List.of(RecordWrite.put(expired)));
      if (config.requestNotifications()) {
        Optional<RequestNotification> notice = RequestNotices.of(event, written.records());
        if (notice.isPresent()) {
          unit = unit.notifying(notice.get());
        }
      }
      if (config.commitHook().isPresent()) {
        CommitHook hook = config.commitHook().get();
        unit = unit.within(inside -> hook.beforeHostCommit(written, inside));
      }
      CommitResult result = config.stores().commit(unit);
      if (result.outcome() != CommitResult.Outcome.COMMITTED) {
        // Another host instance moved the chain; it writes the expiry, this request sees it stale.
        return config.stores().sessions().find(current.id()).orElse(current);
      }
      ListenerFailures.contain(() -> config.listener().hostWrote(written));
      wrote.run();
      current = updated;
    }
    return current;
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

  /** The snapshot's host-owned cursor fields after an event. */
  private static void stamp(ObjectNode snapshot, ChainCursor cursor, Instant now) {
    snapshot.put(WorkSession.JSON_PROPERTY_REVISION, cursor.revision());
    snapshot.put(WorkSession.JSON_PROPERTY_LAST_EVENT_HASH, cursor.lastEventHash());
    snapshot.put(WorkSession.JSON_PROPERTY_UPDATED_AT, Timestamps.format(now));
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
    event.put(JarvisEvent.JSON_PROPERTY_ID, eventId(workSessionId, sequence));
    event.put(JarvisEvent.JSON_PROPERTY_TYPE, type);
    event.put(JarvisEvent.JSON_PROPERTY_WORK_SESSION_ID, workSessionId);
    event.put(JarvisEvent.JSON_PROPERTY_ACTOR_ID, actorId);
    event.put(JarvisEvent.JSON_PROPERTY_TIMESTAMP, Timestamps.format(now));
    ObjectNode payload = event.putObject(JarvisEvent.JSON_PROPERTY_PAYLOAD);
    payload.put(JarvisEventPayload.JSON_PROPERTY_OBJECT_TYPE, objectType);
    payload.put(JarvisEventPayload.JSON_PROPERTY_OBJECT_ID, objectId);
    payload.put(JarvisEventPayload.JSON_PROPERTY_ACTION, type.substring(type.indexOf('.') + 1));
    return event;
  }

  /** {@code <work_session_id>.event.<sequence>}, or a hash of it where that exceeds a JarvisId. */
  static String eventId(String workSessionId, long sequence) {
    String readable = readablePrefix(workSessionId) + sequence;
    if (readable.length() <= 160) {
      return readable;
    }
    return hashedPrefix(workSessionId) + sequence;
  }

  /**
   * Whether {@code eventId} has the form {@link #eventId} gives the host's own events of this
   * WorkSession, at any sequence: a client's event may not take an id the host will write.
   */
  static boolean isHostEventId(String workSessionId, String eventId) {
    return hasSequenceAfter(eventId, readablePrefix(workSessionId))
        // Hashed only for an id that could be of the hashed form: not on every append.
        || (eventId.startsWith(HASHED) && hasSequenceAfter(eventId, hashedPrefix(workSessionId)));
  }

  private static final String HASHED = "event-";

  private static String readablePrefix(String workSessionId) {
    return workSessionId + ".event.";
  }

  private static String hashedPrefix(String workSessionId) {
    return HASHED
        + Sha256Hash.of(workSessionId.getBytes(StandardCharsets.UTF_8)).text().substring(7, 31)
        + ".";
  }

  /** {@code id} is {@code prefix} followed by one or more digits. */
  private static boolean hasSequenceAfter(String id, String prefix) {
    if (id.length() <= prefix.length() || !id.startsWith(prefix)) {
      return false;
    }
    for (int i = prefix.length(); i < id.length(); i++) {
      char c = id.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  /** createWorkSession's own checks, run under the lock before the genesis event is built. */
  @FunctionalInterface
  interface GenesisRule {
    void check(ProtocolCall call);
  }
}
