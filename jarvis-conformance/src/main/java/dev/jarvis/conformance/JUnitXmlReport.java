package dev.jarvis.conformance;

import java.util.Locale;

/**
 * Renders a report in the JUnit XML format CI servers read: one {@code testsuite} named {@code
 * jarvis-conformance}, with a {@code target} property and a {@code note} property per note of the
 * run; one {@code testcase} per check ({@code classname} the check's group), a {@code failure}
 * element for each failed check and a {@code skipped} element, with its reason, for each skipped
 * one.
 */
final class JUnitXmlReport {

  private JUnitXmlReport() {}

  static String of(ConformanceReport report) {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    double total = report.results().stream().mapToLong(r -> r.time().toMillis()).sum() / 1000.0;
    xml.append("<testsuite name=\"jarvis-conformance\" tests=\"")
        .append(report.results().size())
        .append("\" failures=\"")
        .append(report.failures().size())
        .append("\" errors=\"0\" skipped=\"")
        .append(report.skipped().size())
        .append("\" time=\"")
        .append(seconds(total))
        .append("\">\n");
    xml.append("  <properties>\n    <property name=\"target\" value=\"")
        .append(escape(report.target()))
        .append("\"/>\n");
    for (String note : report.notes()) {
      xml.append("    <property name=\"note\" value=\"").append(escape(note)).append("\"/>\n");
    }
    xml.append("  </properties>\n");
    for (CheckResult r : report.results()) {
      xml.append("  <testcase classname=\"jarvis-conformance.")
          .append(escape(r.group()))
          .append("\" name=\"")
          .append(escape(r.name()))
          .append("\" time=\"")
          .append(seconds(r.time().toMillis() / 1000.0))
          .append("\"");
      if (r.passed()) {
        xml.append("/>\n");
      } else if (r.skipped()) {
        xml.append(">\n    <skipped message=\"")
            .append(escape(r.detail()))
            .append("\"/>\n  </testcase>\n");
      } else {
        xml.append(">\n    <failure message=\"")
            .append(escape(r.detail()))
            .append("\" type=\"ProtocolNonConformance\">")
            .append(escape(r.detail()))
            .append("</failure>\n  </testcase>\n");
      }
    }
    return xml.append("</testsuite>\n").toString();
  }

  private static String seconds(double value) {
    return String.format(Locale.ROOT, "%.3f", value);
  }

  private static String escape(String text) {
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      switch (c) {
        case '&' -> out.append("&amp;");
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&apos;");
        default -> {
          if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') {
            out.append(' ');
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }
}
