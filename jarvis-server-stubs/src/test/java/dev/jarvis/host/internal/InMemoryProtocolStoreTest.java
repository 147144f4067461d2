package dev.jarvis.host.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.StoredSession;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The store contract a JDBC implementation must keep: conditional, all-or-nothing writes. */
class InMemoryProtocolStoreTest {

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  private static StoredSession session(long revision, String hash) {
    ObjectNode snapshot = JSON.objectNode();
    snapshot.put("id", "ws-1").put("revision", revision).put("last_event_hash", hash);
    return new StoredSession(snapshot, false);
  }

  private final InMemoryProtocolStore store = new InMemoryProtocolStore();

  @Test
  void anIdIsCreatedOnce() {
    assertTrue(store.create(session(1, "h1"), JSON.objectNode().put("id", "e1")));
    assertFalse(store.create(session(1, "h1"), JSON.objectNode().put("id", "e1")));
  }

  @Test
  void anAppendAtTheCurrentCursorWritesEventSnapshotAndRecordsTogether() {
    store.create(session(1, "h1"), JSON.objectNode().put("id", "e1"));
    StoredRecord record =
        StoredRecord.inSession(RecordKind.REVIEW, "r1", "ws-1", JSON.objectNode())
            .recordedAt(new ChainCursor(2, "h2"));
    assertTrue(
        store.append(
            "ws-1",
            new ChainCursor(1, "h1"),
            JSON.objectNode().put("id", "e2"),
            session(2, "h2"),
            List.of(record)));
    assertEquals(new ChainCursor(2, "h2"), store.find("ws-1").orElseThrow().cursor());
    assertEquals(2, store.events("ws-1").size());
    assertTrue(store.find(RecordKind.REVIEW, "r1").isPresent());
  }

  @Test
  void anAppendAtAStaleCursorWritesNothing() {
    store.create(session(1, "h1"), JSON.objectNode().put("id", "e1"));
    StoredRecord record =
        StoredRecord.inSession(RecordKind.REVIEW, "r1", "ws-1", JSON.objectNode());
    assertFalse(
        store.append(
            "ws-1",
            new ChainCursor(1, "other"),
            JSON.objectNode().put("id", "e2"),
            session(2, "h2"),
            List.of(record)));
    assertEquals(new ChainCursor(1, "h1"), store.find("ws-1").orElseThrow().cursor());
    assertEquals(1, store.events("ws-1").size());
    assertTrue(store.find(RecordKind.REVIEW, "r1").isEmpty());
  }

  @Test
  void aSealedWorkSessionTakesNoAppendAndNoSecondSeal() {
    store.create(session(1, "h1"), JSON.objectNode().put("id", "e1"));
    StoredRecord manifest =
        StoredRecord.inSession(RecordKind.EVIDENCE_MANIFEST, "m1", "ws-1", JSON.objectNode());
    assertTrue(store.seal("ws-1", new ChainCursor(1, "h1"), manifest));
    assertFalse(store.seal("ws-1", new ChainCursor(1, "h1"), manifest));
    assertFalse(
        store.append(
            "ws-1", new ChainCursor(1, "h1"), JSON.objectNode(), session(2, "h2"), List.of()));
    assertTrue(store.find("ws-1").orElseThrow().sealed());
  }
}
