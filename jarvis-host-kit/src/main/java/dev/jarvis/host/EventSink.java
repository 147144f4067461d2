package dev.jarvis.host;

/**
 * A subscriber's response as a {@link LiveStream} writes to it, without blocking: what a binding
 * implements over its non-blocking output (Undertow's channel, a servlet's {@code WriteListener}).
 * The stream makes at most one {@link #write} at a time and waits for its outcome before the next,
 * so nothing is buffered for a subscriber beyond one batch; a write whose outcome has not come
 * within {@link EventStreamLimits#writeTimeout()} is a subscriber that stopped reading, and the
 * stream {@link #abort aborts} it. Every method may be called from any thread and must return at
 * once.
 */
public interface EventSink {

  /**
   * Starts writing {@code bytes} and flushing them to the subscriber; calls {@link
   * Written#written()} once they have left, or {@link Written#failed()} if they cannot (the
   * connection is gone), exactly once, from any thread (this one included).
   */
  void write(byte[] bytes, Written outcome);

  /** Ends the response cleanly, after the last write completed. Called at most once. */
  void end();

  /**
   * Closes the connection now, whatever is being written: the subscriber stopped reading, left, or
   * the host is closing past its grace. Called at most once, instead of {@link #end()}.
   */
  void abort();

  /** The outcome of one {@link #write}. */
  interface Written {
    /** The bytes have left. */
    void written();

    /** They cannot be written: the subscriber is gone. */
    void failed();
  }
}
