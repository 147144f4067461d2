package dev.jarvis.host;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.chain.ChainCursor;
import java.util.List;
import java.util.Optional;

/**
 * WorkSessions and their event chains. Every write is one atomic unit: the conditional chain
 * advance, the new snapshot and the protocol records the event recorded. A JDBC implementation does
 * each in one transaction, the revision check being one conditional {@code UPDATE work_session SET
 * revision = ?, last_event_hash = ?, ... WHERE id = ? AND revision = ? AND last_event_hash = ?}
 * whose update count decides; the host's rules never see the difference.
 */
public interface WorkSessionStore {

  /** The WorkSession, if it exists. */
  Optional<StoredSession> find(String workSessionId);

  /** Its events in chain order; empty if it does not exist. */
  List<JsonNode> events(String workSessionId);

  /** Creates a WorkSession with its first event. False, and nothing written, if the id is taken. */
  boolean create(StoredSession session, JsonNode firstEvent);

  /**
   * Appends {@code event} if the chain still stands at {@code expected}, replacing the snapshot and
   * writing {@code records} (each anchored at the new cursor by the caller). False, and nothing
   * written, if the chain moved on.
   */
  boolean append(
      String workSessionId,
      ChainCursor expected,
      JsonNode event,
      StoredSession updated,
      List<StoredRecord> records);

  /**
   * Seals the WorkSession with its EvidenceManifest if the chain still stands at {@code expected}
   * and it is not sealed yet. False, and nothing written, otherwise.
   */
  boolean seal(String workSessionId, ChainCursor expected, StoredRecord manifest);
}
