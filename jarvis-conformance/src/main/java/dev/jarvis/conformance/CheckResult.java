package dev.jarvis.conformance;

import java.time.Duration;
import java.util.Objects;

/**
 * The outcome of one conformance check.
 *
 * @param group the kind of rule checked ({@code headers}, {@code genesis}, {@code chain}, …)
 * @param name what was checked, as a sentence
 * @param outcome whether the host kept the rule, broke it, or the check could not run
 * @param detail why it failed or was skipped, or a note; empty when there is nothing to say
 * @param time how long the check took
 */
public record CheckResult(
    String group, String name, Outcome outcome, String detail, Duration time) {

  /** What became of a check. */
  public enum Outcome {
    /** The host behaved as the protocol requires. */
    PASSED("PASS"),
    /** The host broke the rule the check is about. */
    FAILED("FAIL"),
    /**
     * The check could not run against this host as configured (a capability it does not declare, an
     * action its Policy does not offer, an option not given); the detail says why. Never a failure.
     */
    SKIPPED("SKIP");

    private final String label;

    Outcome(String label) {
      this.label = label;
    }

    /** {@code PASS}, {@code FAIL} or {@code SKIP}, as the reports print it. */
    public String label() {
      return label;
    }
  }

  public CheckResult {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(detail, "detail");
    Objects.requireNonNull(time, "time");
  }

  /** Whether the host behaved as the protocol requires. */
  public boolean passed() {
    return outcome == Outcome.PASSED;
  }

  /** Whether the host broke the rule. */
  public boolean failed() {
    return outcome == Outcome.FAILED;
  }

  /** Whether the check could not run; {@link #detail()} says why. */
  public boolean skipped() {
    return outcome == Outcome.SKIPPED;
  }

  /**
   * One progress line: {@code PASS group: name}, {@code FAIL group: name — detail} or {@code SKIP
   * group: name — reason}.
   */
  public String line() {
    return outcome.label()
        + "  "
        + group
        + ": "
        + name
        + (passed() || detail.isEmpty() ? "" : " — " + detail);
  }
}
