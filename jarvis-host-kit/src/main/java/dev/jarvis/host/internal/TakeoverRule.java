package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.Request;
import dev.jarvis.model.RequestStatus;
import dev.jarvis.model.Takeover;
import dev.jarvis.model.TakeoverScope;
import dev.jarvis.model.TakeoverState;
import dev.jarvis.model.WorkSessionStatus;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * recordTakeover, by a human Actor (checked by {@link ActorAuthority}). A new Takeover starts
 * {@code requested}, {@code locked} or {@code human_active} with a {@code lock_epoch} above every
 * earlier epoch of its scope ({@code stale_takeover_epoch}); a recorded one moves forward only
 * ({@code requested → locked → human_active → reconciliation_required → resumed → closed}, the
 * order of the spec's {@code TakeoverState}, else {@code invalid_transition}) at its own epoch
 * ({@code stale_takeover_epoch}). While one is unresolved the WorkSession is {@code takeover} (or
 * {@code reconciling}) and AgentWorker writes are refused. A Takeover naming an open Request
 * resolves it.
 *
 * <p>Locks are per Takeover: after each Takeover event the WorkSession's status is computed from
 * every Takeover of the WorkSession. It stays {@code takeover} while any Takeover is {@code
 * requested}, {@code locked} or {@code human_active}, {@code reconciling} while any is {@code
 * reconciliation_required}, and only then returns to {@code waiting_on_human} (a Request open) or
 * {@code active}. A recorded Takeover is moved on only by its controlling Actor ({@code
 * controlling_actor_id} keeps its first value, and the spec makes it the acting Actor), so one
 * human cannot resume another's Takeover ({@code unauthorized_actor}).
 */
final class TakeoverRule implements ScopedRule {

  static final String OBJECT = "takeover";

  /** The states in which a Takeover holds the WorkSession. */
  private static final Set<TakeoverState> HOLDING =
      EnumSet.of(TakeoverState.REQUESTED, TakeoverState.LOCKED, TakeoverState.HUMAN_ACTIVE);

  private final Clock clock;

  TakeoverRule(Clock clock) {
    this.clock = clock;
  }

  @Override
  public Effect apply(ProtocolCall call, SessionView session) {
    JsonNode takeover = call.body();
    String id = takeover.path(Takeover.JSON_PROPERTY_ID).asText();
    String state = takeover.path(Takeover.JSON_PROPERTY_STATE).asText();
    long epoch = takeover.path(Takeover.JSON_PROPERTY_LOCK_EPOCH).asLong();
    Optional<StoredRecord> recorded = session.record(RecordKind.TAKEOVER, id);
    if (recorded.isPresent()) {
      JsonNode before = recorded.get().body();
      String controller = before.path(Takeover.JSON_PROPERTY_CONTROLLING_ACTOR_ID).asText();
      if (!controller.equals(takeover.path(Takeover.JSON_PROPERTY_CONTROLLING_ACTOR_ID).asText())) {
        throw refuse(
            ProtocolErrorId.UNAUTHORIZED_ACTOR,
            OBJECT,
            "/controlling_actor_id",
            "Takeover "
                + id
                + " is controlled by "
                + controller
                + "; only it moves the Takeover on.");
      }
      if (epoch != before.path(Takeover.JSON_PROPERTY_LOCK_EPOCH).asLong()) {
        throw staleEpoch(
            "Takeover "
                + id
                + " holds lock epoch "
                + before.path(Takeover.JSON_PROPERTY_LOCK_EPOCH)
                + ".");
      }
      if (TakeoverState.fromValue(state)
              .compareTo(
                  TakeoverState.fromValue(before.path(Takeover.JSON_PROPERTY_STATE).asText()))
          <= 0) {
        throw refuse(
            ProtocolErrorId.INVALID_TRANSITION,
            OBJECT,
            "/state",
            "Takeover "
                + id
                + " is "
                + before.path(Takeover.JSON_PROPERTY_STATE).asText()
                + "; it cannot become "
                + state
                + ".");
      }
    } else {
      if (TakeoverState.fromValue(state).compareTo(TakeoverState.HUMAN_ACTIVE) > 0) {
        throw refuse(
            ProtocolErrorId.INVALID_TRANSITION,
            OBJECT,
            "/state",
            "A new Takeover starts requested, locked or human_active.");
      }
      String scope =
          takeover
              .path(Takeover.JSON_PROPERTY_AFFECTED_SCOPE)
              .path(TakeoverScope.JSON_PROPERTY_SCOPE_REF)
              .asText();
      for (StoredRecord other : session.records(RecordKind.TAKEOVER)) {
        JsonNode body = other.body();
        if (scope.equals(
                body.path(Takeover.JSON_PROPERTY_AFFECTED_SCOPE)
                    .path(TakeoverScope.JSON_PROPERTY_SCOPE_REF)
                    .asText())
            && epoch <= body.path(Takeover.JSON_PROPERTY_LOCK_EPOCH).asLong()) {
          throw staleEpoch(
              "Scope "
                  + scope
                  + " was locked at epoch "
                  + body.path(Takeover.JSON_PROPERTY_LOCK_EPOCH)
                  + " already.");
        }
      }
    }
    List<StoredRecord> written = new ArrayList<>();
    written.add(StoredRecord.inSession(RecordKind.TAKEOVER, id, session.id(), takeover));
    String requestId = takeover.path(Takeover.JSON_PROPERTY_REQUEST_ID).asText("");
    boolean resolvesRequest = false;
    if (!requestId.isEmpty()) {
      StoredRecord request =
          session
              .record(RecordKind.REQUEST, requestId)
              .orElseThrow(
                  () ->
                      refuse(
                          ProtocolErrorId.UNKNOWN_STATE,
                          OBJECT,
                          "/request_id",
                          "No Request " + requestId + " in this WorkSession."));
      if (RequestLifecycle.isOpen(request)) {
        ObjectNode body = ((ObjectNode) request.body()).deepCopy();
        body.put(Request.JSON_PROPERTY_STATUS, RequestStatus.TAKEOVER.getValue());
        body.put(Request.JSON_PROPERTY_RESOLVED_AT, Timestamps.format(clock.instant()));
        body.put(Request.JSON_PROPERTY_RESOLVED_BY_TAKEOVER_ID, id);
        written.add(
            new StoredRecord(
                request.kind(), request.id(), request.workSessionId(), body, request.recordedAt()));
        resolvesRequest = true;
      }
    }
    String next = statusAfter(session, id, state, resolvesRequest ? requestId : "");
    return new Effect(
        Optional.empty(),
        "takeover.recorded",
        OBJECT,
        id,
        written,
        Optional.of(next),
        call.rawBody());
  }

  /**
   * The WorkSession's status with Takeover {@code id} in {@code state}: held by the most binding
   * Takeover still unresolved, else waiting on an open Request, else active.
   */
  private static String statusAfter(
      SessionView session, String id, String state, String resolvedRequest) {
    List<TakeoverState> states = new ArrayList<>();
    states.add(TakeoverState.fromValue(state));
    for (StoredRecord other : session.records(RecordKind.TAKEOVER)) {
      if (!other.id().equals(id)) {
        states.add(
            TakeoverState.fromValue(other.body().path(Takeover.JSON_PROPERTY_STATE).asText()));
      }
    }
    if (states.stream().anyMatch(HOLDING::contains)) {
      return WorkSessionStatus.TAKEOVER.getValue();
    }
    if (states.contains(TakeoverState.RECONCILIATION_REQUIRED)) {
      return WorkSessionStatus.RECONCILING.getValue();
    }
    boolean waiting =
        session.openRequests().stream().anyMatch(r -> !r.id().equals(resolvedRequest));
    return (waiting ? WorkSessionStatus.WAITING_ON_HUMAN : WorkSessionStatus.ACTIVE).getValue();
  }

  private static RuntimeException staleEpoch(String reason) {
    return refuse(ProtocolErrorId.STALE_TAKEOVER_EPOCH, OBJECT, "/lock_epoch", reason);
  }
}
