package dev.jarvis.host;

import java.util.Objects;

/**
 * One record written by a {@link Mutation}.
 *
 * @param record the record; it replaces one of the same kind, WorkSession and id
 * @param createOnly whether an existing record of that key makes the whole mutation a conflict
 *     instead (an id that may be recorded once)
 */
public record RecordWrite(StoredRecord record, boolean createOnly) {

  public RecordWrite {
    Objects.requireNonNull(record, "record");
  }

  /** Writes or replaces the record. */
  public static RecordWrite put(StoredRecord record) {
    return new RecordWrite(record, false);
  }

  /** Writes the record; the mutation is a conflict if it exists. */
  public static RecordWrite create(StoredRecord record) {
    return new RecordWrite(record, true);
  }
}
