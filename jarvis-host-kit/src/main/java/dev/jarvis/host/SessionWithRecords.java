package dev.jarvis.host;

import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A WorkSession as stored together with some of its records, and which of the event ids asked about
 * its chain holds, as {@link HostStores#findWithRecords} reads them.
 *
 * @param session the WorkSession
 * @param records its records asked for, in the order they were first written
 * @param heldEventIds of the event ids asked about, those an event of the WorkSession has
 */
public record SessionWithRecords(
    StoredSession session, List<StoredRecord> records, Set<String> heldEventIds) {

  public SessionWithRecords {
    Objects.requireNonNull(session, "session");
    records = List.copyOf(records);
    heldEventIds = Set.copyOf(heldEventIds);
  }

  /** The WorkSession with its records, no event ids asked about. */
  public SessionWithRecords(StoredSession session, List<StoredRecord> records) {
    this(session, records, Set.of());
  }
}
