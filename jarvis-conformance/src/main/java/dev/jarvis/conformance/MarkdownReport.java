package dev.jarvis.conformance;

/**
 * Renders a report as Markdown: a verdict line with the counts, the run's notes, then one table row
 * per check (result, group, check, detail), failures first, then skipped checks with their reasons,
 * then passes.
 */
final class MarkdownReport {

  private MarkdownReport() {}

  static String of(ConformanceReport report) {
    StringBuilder md = new StringBuilder("# Jarvis conformance report\n\n");
    md.append("Target: `").append(report.target()).append("`\n\n");
    int failed = report.failures().size();
    md.append(report.passed() ? "**PASS**" : "**FAIL**")
        .append(": ")
        .append(report.counts())
        .append(failed == 0 ? "" : ", " + failed + " failed")
        .append(".\n\n");
    if (!report.notes().isEmpty()) {
      md.append("Notes:\n\n");
      report.notes().forEach(n -> md.append("- ").append(cell(n)).append('\n'));
      md.append('\n');
    }
    md.append("| Result | Group | Check | Detail |\n|---|---|---|---|\n");
    report.failures().forEach(r -> row(md, r));
    report.skipped().forEach(r -> row(md, r));
    report.results().stream().filter(CheckResult::passed).forEach(r -> row(md, r));
    return md.toString();
  }

  private static void row(StringBuilder md, CheckResult r) {
    md.append("| ")
        .append(r.failed() ? "**FAIL**" : r.outcome().label())
        .append(" | ")
        .append(cell(r.group()))
        .append(" | ")
        .append(cell(r.name()))
        .append(" | ")
        .append(cell(r.detail()))
        .append(" |\n");
  }

  private static String cell(String text) {
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\r", " ").replace("\n", " ");
  }
}
