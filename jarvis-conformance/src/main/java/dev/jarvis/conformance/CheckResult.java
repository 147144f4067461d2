package dev.jarvis.conformance;

import java.time.Duration;
import java.util.Objects;

/**
 * The outcome of one conformance check.
 *
 * @param group the kind of rule checked ({@code headers}, {@code genesis}, {@code chain}, …)
 * @param name what was checked, as a sentence
 * @param passed whether the host behaved as the protocol requires
 * @param detail why it failed, or a note; empty when there is nothing to say
 * @param time how long the check took
 */
public record CheckResult(String group, String name, boolean passed, String detail, Duration time) {

  public CheckResult {
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(detail, "detail");
    Objects.requireNonNull(time, "time");
  }

  /** One progress line: {@code PASS group: name} or {@code FAIL group: name — detail}. */
  public String line() {
    return (passed ? "PASS" : "FAIL")
        + "  "
        + group
        + ": "
        + name
        + (passed || detail.isEmpty() ? "" : " — " + detail);
  }
}
