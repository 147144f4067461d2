package dev.jarvis.host;

/**
 * Hears that a WorkSession may have new events: what wakes a host's event streams and long polls
 * ({@code event-stream}). Every call is a hint, never the events themselves: the host reads them
 * from its store by sequence, so a hint repeated, late or about nothing new costs one read and a
 * hint lost costs nothing once {@link #mayHaveMissed} has been called. Implementations return
 * quickly and never throw.
 */
public interface AppendListener {

  /** Events may have been appended to this WorkSession. */
  void appended(String workSessionId);

  /**
   * Appends may have gone unheard (a store's listening connection was lost and is back): every
   * WorkSession may have new events.
   */
  void mayHaveMissed();
}
