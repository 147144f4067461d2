package dev.jarvis.host;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.model.WorkSession;
import java.util.Objects;

/**
 * A WorkSession as stored: its current snapshot (whose {@code revision} and {@code last_event_hash}
 * are the host's) and whether an EvidenceManifest export has sealed it.
 *
 * @param snapshot the WorkSession record
 * @param sealed whether it was exported; a sealed WorkSession refuses every mutation
 */
public record StoredSession(ObjectNode snapshot, boolean sealed) {

  public StoredSession {
    Objects.requireNonNull(snapshot, "snapshot");
  }

  /** The WorkSession id. */
  public String id() {
    return snapshot.path(WorkSession.JSON_PROPERTY_ID).asText();
  }

  /** Where the chain stands. */
  public ChainCursor cursor() {
    return new ChainCursor(
        snapshot.path(WorkSession.JSON_PROPERTY_REVISION).asLong(),
        snapshot.path(WorkSession.JSON_PROPERTY_LAST_EVENT_HASH).asText());
  }

  /** The {@code status} text. */
  public String status() {
    return snapshot.path(WorkSession.JSON_PROPERTY_STATUS).asText();
  }
}
