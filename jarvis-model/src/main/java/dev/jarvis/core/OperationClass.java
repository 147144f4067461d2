package dev.jarvis.core;

import java.util.Locale;

/** The spec's {@code x-jarvis-operation-class}: which headers an operation requires. */
public enum OperationClass {
  /** Registers Workers/Actors, submits OutcomeReports: four mutation headers, no cursor. */
  NON_WORKSESSION_MUTATION(true, false),
  /** Creates a WorkSession: all six mutation headers, revision 0 and the genesis hash. */
  WORKSESSION_GENESIS_MUTATION(true, true),
  /** Changes a WorkSession: all six mutation headers. */
  WORKSESSION_SCOPED_MUTATION(true, true),
  /** Reads a WorkSession: no mutation headers. */
  WORKSESSION_SCOPED_READ(false, false),
  /** Exports an EvidenceManifest: no mutation headers. */
  EXPORT_READ(false, false);

  private final boolean mutation;
  private final boolean needsCursor;

  OperationClass(boolean mutation, boolean needsCursor) {
    this.mutation = mutation;
    this.needsCursor = needsCursor;
  }

  /** Whether idempotency key and request timestamp are required. */
  public boolean isMutation() {
    return mutation;
  }

  /** Whether expected revision and previous event hash are required. */
  public boolean needsCursor() {
    return needsCursor;
  }

  /** The spec's spelling, e.g. {@code worksession_scoped_mutation}. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Parses the spec's spelling. */
  public static OperationClass fromWireName(String name) {
    for (OperationClass c : values()) {
      if (c.wireName().equals(name)) {
        return c;
      }
    }
    throw new IllegalArgumentException("unknown x-jarvis-operation-class: " + name);
  }
}
