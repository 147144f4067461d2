package dev.jarvis.client.internal;

import dev.jarvis.core.chain.ChainCursor;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The client's view of each WorkSession's chain. Absent means unknown: the next scoped mutation
 * re-reads the WorkSession first.
 */
public final class SessionCursors {

  private final ConcurrentHashMap<String, ChainCursor> cursors = new ConcurrentHashMap<>();

  public Optional<ChainCursor> get(String workSessionId) {
    return Optional.ofNullable(cursors.get(workSessionId));
  }

  public void set(String workSessionId, ChainCursor cursor) {
    cursors.put(workSessionId, cursor);
  }

  /** Marks the cursor unknown; the next mutation re-reads it. */
  public void forget(String workSessionId) {
    cursors.remove(workSessionId);
  }
}
