package dev.jarvis.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The host kit's main sources, read as text by the tests that hold them to a rule. */
final class SourceScan {

  static final Path SOURCES = Path.of("src/main/java/dev/jarvis/host");

  private SourceScan() {}

  /** The Java files below {@link #SOURCES}, less those named in {@code excluded}. */
  static List<Path> files(Set<String> excluded) throws IOException {
    try (Stream<Path> files = Files.walk(SOURCES)) {
      return files
          .filter(f -> f.toString().endsWith(".java"))
          .filter(f -> !excluded.contains(f.getFileName().toString()))
          .sorted()
          .toList();
    }
  }

  /**
   * Every line of those files that {@code pattern} finds something in, as {@code file:line: text}.
   */
  static List<String> linesMatching(Pattern pattern, Set<String> excluded) throws IOException {
    List<String> found = new ArrayList<>();
    for (Path file : files(excluded)) {
      List<String> lines = Files.readAllLines(file);
      for (int i = 0; i < lines.size(); i++) {
        if (pattern.matcher(lines.get(i)).find()) {
          found.add(SOURCES.relativize(file) + ":" + (i + 1) + ": " + lines.get(i).strip());
        }
      }
    }
    return found;
  }
}
