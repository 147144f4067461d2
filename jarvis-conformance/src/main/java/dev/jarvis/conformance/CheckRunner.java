package dev.jarvis.conformance;

import dev.jarvis.conformance.CheckResult.Outcome;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs checks one by one, turning each into a {@link CheckResult} and a progress line, and keeps
 * the run's notes (what it assumed).
 */
final class CheckRunner {

  /**
   * The body of one check; throws {@link CheckFailure} when the host breaks the rule, {@link
   * CheckSkipped} when the check cannot run against this host as configured.
   */
  @FunctionalInterface
  interface Check {
    /** Runs the check; a returned text is kept as a note on a pass. */
    String run();
  }

  private final PrintStream progress;
  private final Clock clock;
  private final List<CheckResult> results = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();

  CheckRunner(PrintStream progress, Clock clock) {
    this.progress = progress;
    this.clock = clock;
  }

  /**
   * Runs one check and answers whether it passed. {@link HostUnreachableException} passes through:
   * nothing else can run.
   */
  boolean check(String group, String name, Check check) {
    long start = clock.millis();
    Outcome outcome;
    String detail;
    try {
      String note = check.run();
      outcome = Outcome.PASSED;
      detail = note == null ? "" : note;
    } catch (CheckFailure failure) {
      outcome = Outcome.FAILED;
      detail = failure.getMessage();
    } catch (CheckSkipped skipped) {
      outcome = Outcome.SKIPPED;
      detail = skipped.getMessage();
    } catch (HostUnreachableException unreachable) {
      throw unreachable;
    } catch (RuntimeException e) {
      outcome = Outcome.FAILED;
      detail = "the check could not complete: " + e;
    }
    CheckResult result =
        new CheckResult(group, name, outcome, detail, Duration.ofMillis(clock.millis() - start));
    results.add(result);
    progress.println(result.line());
    progress.flush();
    return result.passed();
  }

  /** Keeps a note for the reports: one sentence on what the run assumed. */
  void note(String note) {
    notes.add(note);
  }

  List<CheckResult> results() {
    return List.copyOf(results);
  }

  List<String> notes() {
    return List.copyOf(notes);
  }
}
