package dev.jarvis.store.jdbc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.host.ChainWrite;
import dev.jarvis.host.IdempotencyClaim;
import dev.jarvis.host.IdempotencyStore;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.RecordWrite;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.StoredResponse;
import dev.jarvis.host.StoredSession;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Units of work as the host commits them, for the fault tests: an append carrying its idempotency
 * record, an evidence citation and a record, so that every kind of statement is in one unit.
 */
final class Units {

  static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  static final Instant T0 = Instant.parse("2026-12-01T18:00:00.123Z");

  private Units() {}

  /** The genesis of {@code workSessionId}, no key. */
  static Mutation genesis(String workSessionId) {
    ObjectNode first = event(workSessionId, ChainCursor.GENESIS, "", 0);
    return Mutation.of(new ChainWrite.Genesis(snapshot(workSessionId, first), first), List.of());
  }

  /**
   * The append after {@code at} under idempotency key {@code key}: claim, WorkSession update,
   * event, its citation, a record's host-wide id and the record; {@code padding} characters make
   * the event large (to fill a size-limited database).
   */
  static Mutation append(String workSessionId, ChainCursor at, String key, int padding) {
    ObjectNode event = event(workSessionId, at, "evidence:" + key, padding);
    ChainCursor next = cursorAfter(event);
    ObjectNode body = JSON.objectNode();
    body.put("id", "review-" + key);
    body.put("work_session_id", workSessionId);
    body.put("status", "recorded");
    StoredRecord review =
        StoredRecord.inSession(RecordKind.REVIEW, "review-" + key, workSessionId, body)
            .recordedAt(next);
    return Mutation.of(
            new ChainWrite.Append(workSessionId, at, event, snapshot(workSessionId, event)),
            List.of(RecordWrite.put(review)))
        .claiming(claim(key, next));
  }

  /**
   * The same append answered as appendJarvisEvent answers: its body the event's JSON as the host
   * writes it, its cursor headers the event's sequence and hash.
   */
  static Mutation appendAnsweredByItsEvent(String workSessionId, ChainCursor at, String key) {
    Mutation append = append(workSessionId, at, key, 0);
    JsonNode event = append.appendedEvent().orElseThrow();
    ChainCursor next = cursorAfter(event);
    StoredResponse answer =
        new StoredResponse(
            201,
            Map.of(
                "Content-Type",
                "application/json",
                "Jarvis-Protocol-Version",
                "v0.1",
                "Jarvis-WorkSession-Revision",
                Long.toString(next.revision()),
                "Jarvis-Last-Event-Hash",
                next.lastEventHash()),
            JsonText.write(event).getBytes(StandardCharsets.UTF_8));
    return append.claiming(
        new IdempotencyClaim(
            scope(key),
            new IdempotencyStore.Entry("sha256:" + key, answer, T0),
            T0.minusSeconds(60)));
  }

  static IdempotencyStore.Scope scope(String key) {
    return new IdempotencyStore.Scope("actor-1", "appendJarvisEvent", "v0.1", key);
  }

  static ChainCursor cursorAfter(JsonNode event) {
    return new ChainCursor(event.path("sequence").asLong(), event.path("event_hash").asText());
  }

  private static IdempotencyClaim claim(String key, ChainCursor next) {
    StoredResponse answer =
        new StoredResponse(
            201,
            Map.of(
                "Jarvis-WorkSession-Revision", Long.toString(next.revision()),
                "Jarvis-Last-Event-Hash", next.lastEventHash()),
            ("{\"key\":\"" + key + "\"}").getBytes(StandardCharsets.UTF_8));
    return new IdempotencyClaim(
        scope(key), new IdempotencyStore.Entry("sha256:" + key, answer, T0), T0.minusSeconds(60));
  }

  private static ObjectNode event(String workSessionId, ChainCursor at, String ref, int padding) {
    long sequence = at.revision() + 1;
    ObjectNode draft = JSON.objectNode();
    draft.put("id", workSessionId + ".event." + sequence);
    draft.put("type", sequence == 1 ? "work_session.created" : "note.added");
    draft.put("work_session_id", workSessionId);
    draft.put("actor_id", "actor-1");
    draft.put("timestamp", "2026-12-01T18:00:00Z");
    ObjectNode payload = draft.putObject("payload");
    payload.put("object_type", "note");
    payload.put("object_id", "note-" + sequence);
    payload.put("action", "added");
    payload.put("text", "x".repeat(padding));
    if (!ref.isEmpty()) {
      payload.putArray("evidence_refs").add(ref);
    }
    return EventChain.next(at, draft);
  }

  private static StoredSession snapshot(String workSessionId, JsonNode event) {
    ChainCursor cursor = cursorAfter(event);
    ObjectNode snapshot = JSON.objectNode();
    snapshot.put("id", workSessionId);
    snapshot.put("status", "active");
    snapshot.put("revision", cursor.revision());
    snapshot.put("last_event_hash", cursor.lastEventHash());
    return new StoredSession(snapshot, false);
  }
}
