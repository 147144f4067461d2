package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.refuse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.model.ProtocolErrorId;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * recordTakeover, by a human Actor (checked by {@link ActorAuthority}). A new Takeover starts
 * {@code requested}, {@code locked} or {@code human_active} with a {@code lock_epoch} above every
 * earlier epoch of its scope ({@code stale_takeover_epoch}); a recorded one moves forward only
 * ({@code requested → locked → human_active → reconciliation_required → resumed → closed}, else
 * {@code invalid_transition}) at its own epoch ({@code stale_takeover_epoch}). While one is
 * unresolved the WorkSession is {@code takeover} (or {@code reconciling}) and AgentWorker writes
 * are refused. A Takeover naming an open Request resolves it.
 */
final class TakeoverRule implements ScopedRule {

  static final String OBJECT = "takeover";
  private static final List<String> ORDER =
      List.of(
          "requested", "locked", "human_active", "reconciliation_required", "resumed", "closed");

  private final Clock clock;

  TakeoverRule(Clock clock) {
    this.clock = clock;
  }

  @Override
  public Effect apply(ProtocolCall call, SessionView session) {
    JsonNode takeover = call.body();
    String id = takeover.path("id").asText();
    String state = takeover.path("state").asText();
    long epoch = takeover.path("lock_epoch").asLong();
    Optional<StoredRecord> recorded = session.record(RecordKind.TAKEOVER, id);
    if (recorded.isPresent()) {
      JsonNode before = recorded.get().body();
      if (epoch != before.path("lock_epoch").asLong()) {
        throw staleEpoch("Takeover " + id + " holds lock epoch " + before.path("lock_epoch") + ".");
      }
      if (ORDER.indexOf(state) <= ORDER.indexOf(before.path("state").asText())) {
        throw refuse(
            ProtocolErrorId.INVALID_TRANSITION,
            OBJECT,
            "/state",
            "Takeover "
                + id
                + " is "
                + before.path("state").asText()
                + "; it cannot become "
                + state
                + ".");
      }
    } else {
      if (ORDER.indexOf(state) > ORDER.indexOf("human_active")) {
        throw refuse(
            ProtocolErrorId.INVALID_TRANSITION,
            OBJECT,
            "/state",
            "A new Takeover starts requested, locked or human_active.");
      }
      String scope = takeover.path("affected_scope").path("scope_ref").asText();
      for (StoredRecord other : session.records(RecordKind.TAKEOVER)) {
        JsonNode body = other.body();
        if (scope.equals(body.path("affected_scope").path("scope_ref").asText())
            && epoch <= body.path("lock_epoch").asLong()) {
          throw staleEpoch(
              "Scope " + scope + " was locked at epoch " + body.path("lock_epoch") + " already.");
        }
      }
    }
    List<StoredRecord> written = new ArrayList<>();
    written.add(StoredRecord.inSession(RecordKind.TAKEOVER, id, session.id(), takeover));
    String requestId = takeover.path("request_id").asText("");
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
      if (RequestRule.OPEN.contains(request.body().path("status").asText())) {
        ObjectNode body = ((ObjectNode) request.body()).deepCopy();
        body.put("status", "takeover");
        body.put("resolved_at", Timestamps.format(clock.instant()));
        body.put("resolved_by_takeover_id", id);
        written.add(
            new StoredRecord(
                request.kind(), request.id(), request.workSessionId(), body, request.recordedAt()));
        resolvesRequest = true;
      }
    }
    String next =
        switch (state) {
          case "reconciliation_required" -> "reconciling";
          case "resumed", "closed" ->
              openRequests(session, resolvesRequest ? requestId : "")
                  ? "waiting_on_human"
                  : "active";
          default -> "takeover";
        };
    return new Effect(
        Optional.empty(),
        "takeover.recorded",
        OBJECT,
        id,
        written,
        Optional.of(next),
        call.rawBody());
  }

  private static boolean openRequests(SessionView session, String resolvedNow) {
    for (StoredRecord request : session.records(RecordKind.REQUEST)) {
      if (!request.id().equals(resolvedNow)
          && RequestRule.OPEN.contains(request.body().path("status").asText())) {
        return true;
      }
    }
    return false;
  }

  private static RuntimeException staleEpoch(String reason) {
    return refuse(ProtocolErrorId.STALE_TAKEOVER_EPOCH, OBJECT, "/lock_epoch", reason);
  }
}
