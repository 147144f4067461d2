package dev.jarvis.host;

import java.util.List;
import java.util.Objects;

/**
 * A WorkSession as stored together with some of its records, as {@link HostStores#findWithRecords}
 * reads them.
 *
 * @param session the WorkSession
 * @param records its records asked for, in the order they were first written
 */
public record SessionWithRecords(StoredSession session, List<StoredRecord> records) {

  public SessionWithRecords {
    Objects.requireNonNull(session, "session");
    records = List.copyOf(records);
  }
}
