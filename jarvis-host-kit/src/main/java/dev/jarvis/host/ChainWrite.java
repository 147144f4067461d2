package dev.jarvis.host;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.chain.ChainCursor;
import java.util.Objects;

/**
 * What a {@link Mutation} does to a WorkSession's chain. Each is conditional: a JDBC store decides
 * it with one insert that can fail (genesis) or one conditional {@code UPDATE ... WHERE id = ? AND
 * revision = ? AND last_event_hash = ? AND NOT sealed} whose update count decides (append, seal).
 */
public sealed interface ChainWrite {

  /** The WorkSession the write is about. */
  String workSessionId();

  /**
   * Creates a WorkSession with its first event; a conflict if the id exists.
   *
   * @param session the snapshot at revision 1
   * @param firstEvent the genesis event
   */
  record Genesis(StoredSession session, JsonNode firstEvent) implements ChainWrite {
    public Genesis {
      Objects.requireNonNull(session, "session");
      Objects.requireNonNull(firstEvent, "firstEvent");
    }

    @Override
    public String workSessionId() {
      return session.id();
    }
  }

  /**
   * Appends one event; a conflict unless the WorkSession exists, is not sealed and its chain stands
   * at {@code expected}.
   *
   * @param workSessionId the WorkSession
   * @param expected where the chain stood when the rules decided
   * @param event the next event
   * @param updated the snapshot after it
   */
  record Append(String workSessionId, ChainCursor expected, JsonNode event, StoredSession updated)
      implements ChainWrite {
    public Append {
      Objects.requireNonNull(workSessionId, "workSessionId");
      Objects.requireNonNull(expected, "expected");
      Objects.requireNonNull(event, "event");
      Objects.requireNonNull(updated, "updated");
    }
  }

  /**
   * Seals the WorkSession (its EvidenceManifest travels as a record of the same mutation); a
   * conflict unless it exists, is not sealed and its chain stands at {@code expected}.
   *
   * @param workSessionId the WorkSession
   * @param expected where the chain stood when the manifest was built
   */
  record Seal(String workSessionId, ChainCursor expected) implements ChainWrite {
    public Seal {
      Objects.requireNonNull(workSessionId, "workSessionId");
      Objects.requireNonNull(expected, "expected");
    }
  }
}
