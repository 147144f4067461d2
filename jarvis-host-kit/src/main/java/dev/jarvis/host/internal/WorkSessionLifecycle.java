package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.Refusals.refuse;

import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.WorkSessionStatus;
import java.util.Optional;
import java.util.Set;

/**
 * WorkSession status rules. The spec has no operation that ends a WorkSession, so this host reads
 * it from appended events: {@code work_session.completed}, {@code work_session.failed} and {@code
 * work_session.cancelled} make it terminal (from any non-terminal status); {@code
 * work_session.closed} closes a terminal WorkSession. The other statuses follow the control plane:
 * a pending Request makes it {@code waiting_on_human}, a Takeover {@code takeover} or {@code
 * reconciling}, and it returns to {@code active} when they resolve.
 */
final class WorkSessionLifecycle {

  static final String CLOSED = WorkSessionStatus.CLOSED.getValue();
  static final String CLOSED_EVENT = "work_session.closed";
  static final Set<String> TERMINAL =
      Set.of(
          WorkSessionStatus.COMPLETED.getValue(),
          WorkSessionStatus.FAILED.getValue(),
          WorkSessionStatus.CANCELLED.getValue());

  private WorkSessionLifecycle() {}

  /** Whether the status allows an EvidenceManifest export. */
  static boolean exportable(String status) {
    return TERMINAL.contains(status) || CLOSED.equals(status);
  }

  /**
   * Refuses a mutation a WorkSession in {@code status} no longer takes: after {@code closed}
   * everything, after a terminal status everything but the closing event.
   */
  static void checkOpen(String status, Optional<String> eventType) {
    boolean closing = eventType.filter(CLOSED_EVENT::equals).isPresent();
    if (CLOSED.equals(status) || (TERMINAL.contains(status) && !closing)) {
      throw refuse(
          ProtocolErrorId.MUTATION_AFTER_CLOSED,
          "work_session",
          "/status",
          "The WorkSession is " + status + " and takes no further mutation.");
    }
  }

  /** The status after appending an event of {@code type} in {@code status}, if it changes. */
  static Optional<String> afterEvent(String status, String type) {
    if (CLOSED_EVENT.equals(type)) {
      if (!TERMINAL.contains(status)) {
        throw refuse(
            ProtocolErrorId.INVALID_TRANSITION,
            "jarvis_event",
            "/type",
            "Only a completed, failed or cancelled WorkSession can be closed; it is "
                + status
                + ".");
      }
      return Optional.of(CLOSED);
    }
    if (type.startsWith("work_session.")) {
      String next = type.substring("work_session.".length());
      if (TERMINAL.contains(next)) {
        return Optional.of(next);
      }
    }
    return Optional.empty();
  }
}
