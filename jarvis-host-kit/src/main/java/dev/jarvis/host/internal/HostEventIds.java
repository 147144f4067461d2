package dev.jarvis.host.internal;

import dev.jarvis.core.canonical.Sha256Hash;
import java.nio.charset.StandardCharsets;

/**
 * The ids of the events the host builds itself: {@code <work_session_id>.event.<sequence>}, or,
 * where that would exceed a JarvisId's 160 characters, {@code event-<24 hex of the WorkSession id's
 * SHA-256>.<sequence>}. A client may not append an event under an id of this form ({@link
 * EventAppendRule}), so the host never finds its next id taken.
 */
final class HostEventIds {

  private static final int MAX_ID_LENGTH = 160;

  private static final String HASHED = "event-";

  private HostEventIds() {}

  /** The id of the host's event at {@code sequence} in WorkSession {@code workSessionId}. */
  static String eventId(String workSessionId, long sequence) {
    String readable = readablePrefix(workSessionId) + sequence;
    if (readable.length() <= MAX_ID_LENGTH) {
      return readable;
    }
    return hashedPrefix(workSessionId) + sequence;
  }

  /**
   * Whether {@code eventId} has the form {@link #eventId} gives the host's own events of this
   * WorkSession, at any sequence: a client's event may not take an id the host will write.
   */
  static boolean isHostEventId(String workSessionId, String eventId) {
    return hasSequenceAfter(eventId, readablePrefix(workSessionId))
        // Hashed only for an id that could be of the hashed form: not on every append.
        || (eventId.startsWith(HASHED) && hasSequenceAfter(eventId, hashedPrefix(workSessionId)));
  }

  private static String readablePrefix(String workSessionId) {
    return workSessionId + ".event.";
  }

  private static String hashedPrefix(String workSessionId) {
    return HASHED
        + Sha256Hash.of(workSessionId.getBytes(StandardCharsets.UTF_8)).text().substring(7, 31)
        + ".";
  }

  /** {@code id} is {@code prefix} followed by one or more digits. */
  private static boolean hasSequenceAfter(String id, String prefix) {
    if (id.length() <= prefix.length() || !id.startsWith(prefix)) {
      return false;
    }
    for (int i = prefix.length(); i < id.length(); i++) {
      char c = id.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }
}
