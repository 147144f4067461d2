package dev.jarvis.client.governed;

import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * What the action event records about the work: a one-line summary ({@code payload.summary}) and
 * references to evidence it produced ({@code payload.evidence_refs}, after the {@code
 * policy_decision:<id>} the event always cites). Agent-written text: hosts and readers show it as
 * text, never markup. Keep secrets and credentials out of it: it is stored in the hash chain.
 *
 * @param summary one line, not blank
 * @param evidenceRefs opaque references (for example {@code artifact:report-7}), in order
 */
public record ActionReport(String summary, Set<String> evidenceRefs) {

  public ActionReport {
    Objects.requireNonNull(summary, "summary");
    if (summary.isBlank()) {
      throw new IllegalArgumentException("summary must not be blank");
    }
    evidenceRefs = java.util.Collections.unmodifiableSet(new LinkedHashSet<>(evidenceRefs));
  }

  /** A summary and no evidence beyond the decision. */
  public static ActionReport of(String summary) {
    return new ActionReport(summary, Set.of());
  }
}
