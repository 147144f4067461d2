package dev.jarvis.conformance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The outcome of a conformance run: every check in the order it ran.
 *
 * @param target what was checked: the base URL and/or the recorded directory
 * @param results every check's outcome
 */
public record ConformanceReport(String target, List<CheckResult> results) {

  /** The JUnit XML report's file name. */
  public static final String JUNIT_XML = "TEST-jarvis-conformance.xml";

  /** The Markdown report's file name. */
  public static final String MARKDOWN = "jarvis-conformance.md";

  public ConformanceReport {
    results = List.copyOf(results);
  }

  /** Whether every check passed (and at least one ran). */
  public boolean passed() {
    return !results.isEmpty() && failures().isEmpty();
  }

  /** The checks that failed. */
  public List<CheckResult> failures() {
    return results.stream().filter(r -> !r.passed()).toList();
  }

  /** The check with this name, if it ran. */
  public Optional<CheckResult> result(String name) {
    return results.stream().filter(r -> r.name().equals(name)).findFirst();
  }

  /** Writes {@value #JUNIT_XML} and {@value #MARKDOWN} into {@code directory}, creating it. */
  public void writeTo(Path directory) throws IOException {
    Files.createDirectories(directory);
    Files.writeString(
        directory.resolve(JUNIT_XML), JUnitXmlReport.of(this), StandardCharsets.UTF_8);
    Files.writeString(directory.resolve(MARKDOWN), MarkdownReport.of(this), StandardCharsets.UTF_8);
  }
}
