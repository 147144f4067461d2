package dev.jarvis.store.tck;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.host.ChainWrite;
import dev.jarvis.host.IdempotencyClaim;
import dev.jarvis.host.IdempotencyStore;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.StoredResponse;
import dev.jarvis.host.StoredSession;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Builds the WorkSessions, events, records and claims the contract writes. */
final class StoreFixtures {

  static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  /** A fixed instant, to the millisecond, so every store keeps it exactly. */
  static final Instant T0 = Instant.parse("2026-06-12T18:00:00.123Z");

  private StoreFixtures() {}

  /** A chained event of a WorkSession after {@code cursor}. */
  static ObjectNode event(String workSessionId, ChainCursor cursor, String... evidenceRefs) {
    long sequence = cursor.revision() + 1;
    ObjectNode draft = JSON.objectNode();
    draft.put("id", workSessionId + ".event." + sequence);
    draft.put("type", sequence == 1 ? "work_session.created" : "note.added");
    draft.put("work_session_id", workSessionId);
    draft.put("actor_id", "actor-1");
    draft.put("timestamp", "2026-06-12T18:00:00Z");
    ObjectNode payload = draft.putObject("payload");
    payload.put("object_type", "note");
    payload.put("object_id", "note-" + sequence);
    payload.put("action", "added");
    if (evidenceRefs.length > 0) {
      List.of(evidenceRefs).forEach(payload.putArray("evidence_refs")::add);
    }
    return EventChain.next(cursor, draft);
  }

  /** The snapshot at the cursor after {@code event}. */
  static StoredSession snapshot(String workSessionId, JsonNode event, String status) {
    ChainCursor cursor = cursorAfter(event);
    ObjectNode snapshot = JSON.objectNode();
    snapshot.put("id", workSessionId);
    snapshot.put("objective", "Ship the store — “durably”");
    snapshot.put("status", status);
    snapshot.put("revision", cursor.revision());
    snapshot.put("last_event_hash", cursor.lastEventHash());
    return new StoredSession(snapshot, false);
  }

  static ChainCursor cursorAfter(JsonNode event) {
    return new ChainCursor(event.path("sequence").asLong(), event.path("event_hash").asText());
  }

  /** The genesis write of a new WorkSession. */
  static ChainWrite.Genesis genesis(String workSessionId) {
    ObjectNode first = event(workSessionId, ChainCursor.GENESIS);
    return new ChainWrite.Genesis(snapshot(workSessionId, first, "active"), first);
  }

  /** The append of the next event at {@code cursor}. */
  static ChainWrite.Append append(String workSessionId, ChainCursor cursor, String... refs) {
    ObjectNode event = event(workSessionId, cursor, refs);
    return new ChainWrite.Append(
        workSessionId, cursor, event, snapshot(workSessionId, event, "active"));
  }

  /** A record of a WorkSession with a {@code status}. */
  static StoredRecord record(
      RecordKind kind, String workSessionId, String id, String status, ChainCursor at) {
    ObjectNode body = JSON.objectNode();
    body.put("id", id);
    body.put("work_session_id", workSessionId);
    body.put("status", status);
    return StoredRecord.inSession(kind, id, workSessionId, body).recordedAt(at);
  }

  /** A record outside WorkSessions. */
  static StoredRecord global(RecordKind kind, String id, String note) {
    ObjectNode body = JSON.objectNode();
    body.put("id", id);
    body.put("note", note);
    return StoredRecord.global(kind, id, body);
  }

  static IdempotencyStore.Scope scope(String key) {
    return new IdempotencyStore.Scope("actor-1", "appendJarvisEvent", "v0.1", key);
  }

  /** A claim answering with a response that names {@code label}, stored at {@code at}. */
  static IdempotencyClaim claim(IdempotencyStore.Scope scope, String label, Instant at) {
    return new IdempotencyClaim(
        scope,
        new IdempotencyStore.Entry("sha256:" + label, response(label), at),
        at.minusSeconds(3600));
  }

  static StoredResponse response(String label) {
    return new StoredResponse(
        201,
        Map.of(
            "Content-Type", "application/json",
            "Jarvis-WorkSession-Revision", "2",
            "Jarvis-Last-Event-Hash", "sha256:" + label),
        ("{\"label\":\"" + label + "\",\"text\":\"ünïcødé ✓\"}").getBytes(StandardCharsets.UTF_8));
  }
}
