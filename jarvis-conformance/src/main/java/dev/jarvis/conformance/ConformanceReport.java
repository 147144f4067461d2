package dev.jarvis.conformance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The outcome of a conformance run: every check in the order it ran, and what the run assumed.
 *
 * @param target what was checked: the base URL and/or the recorded directory
 * @param results every check's outcome
 * @param notes what the run assumed about the host, one sentence each (the Policy it took its
 *     actions from, above all); empty when it assumed nothing
 */
public record ConformanceReport(String target, List<CheckResult> results, List<String> notes) {

  /** The JUnit XML report's file name. */
  public static final String JUNIT_XML = "TEST-jarvis-conformance.xml";

  /** The Markdown report's file name. */
  public static final String MARKDOWN = "jarvis-conformance.md";

  public ConformanceReport {
    results = List.copyOf(results);
    notes = List.copyOf(notes);
  }

  /** A report without notes. */
  public ConformanceReport(String target, List<CheckResult> results) {
    this(target, results, List.of());
  }

  /** Whether no check failed and at least one passed; skipped checks do not fail a run. */
  public boolean passed() {
    return results.stream().anyMatch(CheckResult::passed) && failures().isEmpty();
  }

  /** The checks that failed. */
  public List<CheckResult> failures() {
    return results.stream().filter(CheckResult::failed).toList();
  }

  /** The checks that could not run against this host, each with its reason. */
  public List<CheckResult> skipped() {
    return results.stream().filter(CheckResult::skipped).toList();
  }

  /** The check with this name, if it ran. */
  public Optional<CheckResult> result(String name) {
    return results.stream().filter(r -> r.name().equals(name)).findFirst();
  }

  /**
   * The counts, as the console and the Markdown report give them: {@code n of m checks passed},
   * then {@code , k skipped} where any were.
   */
  String counts() {
    long passed = results.stream().filter(CheckResult::passed).count();
    int skipped = skipped().size();
    return passed
        + " of "
        + results.size()
        + " checks passed"
        + (skipped == 0 ? "" : ", " + skipped + " skipped");
  }

  /** Writes {@value #JUNIT_XML} and {@value #MARKDOWN} into {@code directory}, creating it. */
  public void writeTo(Path directory) throws IOException {
    Files.createDirectories(directory);
    Files.writeString(
        directory.resolve(JUNIT_XML), JUnitXmlReport.of(this), StandardCharsets.UTF_8);
    Files.writeString(directory.resolve(MARKDOWN), MarkdownReport.of(this), StandardCharsets.UTF_8);
  }
}
