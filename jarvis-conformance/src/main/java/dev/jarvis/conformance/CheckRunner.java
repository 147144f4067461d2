package dev.jarvis.conformance;

import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Runs checks one by one, turning each into a {@link CheckResult} and a progress line. */
final class CheckRunner {

  /** The body of one check; throws {@link CheckFailure} when the host breaks the rule. */
  @FunctionalInterface
  interface Check {
    /** Runs the check; a returned text is kept as a note on a pass. */
    String run();
  }

  private final PrintStream progress;
  private final Clock clock;
  private final List<CheckResult> results = new ArrayList<>();

  CheckRunner(PrintStream progress, Clock clock) {
    this.progress = progress;
    this.clock = clock;
  }

  /** Runs one check. {@link HostUnreachableException} passes through: nothing else can run. */
  boolean check(String group, String name, Check check) {
    long start = clock.millis();
    boolean passed;
    String detail;
    try {
      String note = check.run();
      passed = true;
      detail = note == null ? "" : note;
    } catch (CheckFailure failure) {
      passed = false;
      detail = failure.getMessage();
    } catch (HostUnreachableException unreachable) {
      throw unreachable;
    } catch (RuntimeException e) {
      passed = false;
      detail = "the check could not complete: " + e;
    }
    CheckResult result =
        new CheckResult(group, name, passed, detail, Duration.ofMillis(clock.millis() - start));
    results.add(result);
    progress.println(result.line());
    progress.flush();
    return passed;
  }

  List<CheckResult> results() {
    return List.copyOf(results);
  }
}
