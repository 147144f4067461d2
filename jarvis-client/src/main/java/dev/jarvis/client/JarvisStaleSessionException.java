package dev.jarvis.client;

import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.model.ProtocolError;

/**
 * The WorkSession moved on before this mutation arrived ({@code stale_work_session_revision} or
 * {@code invalid_previous_event_hash}). The client has already re-read the WorkSession; it does not
 * replay the call, because what the caller wants to do may depend on what changed.
 */
public final class JarvisStaleSessionException extends JarvisRefusalException {
  private static final long serialVersionUID = 1L;

  private final String workSessionId;
  private final transient ChainCursor current;

  public JarvisStaleSessionException(
      ProtocolError error, String workSessionId, ChainCursor current) {
    this(error, "", workSessionId, current);
  }

  /** The same, naming the refused call (see {@link JarvisRefusalException#call()}). */
  public JarvisStaleSessionException(
      ProtocolError error, String call, String workSessionId, ChainCursor current) {
    super(error, call);
    this.workSessionId = workSessionId;
    this.current = current;
  }

  public String workSessionId() {
    return workSessionId;
  }

  /**
   * The WorkSession's revision and last event hash as re-read after the refusal: where the session
   * is now, not the session itself. Read the WorkSession ({@code getWorkSession}) or its events to
   * decide again; the next mutation builds on this cursor.
   */
  public ChainCursor current() {
    return current;
  }

  @Override
  public Kind kind() {
    return Kind.STALE_SESSION;
  }
}
