package dev.jarvis.core.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Issue 24 item 2 for the policy engine: it reads the Policy through the generated model ({@code
 * dev.jarvis.model.Policy}, bound once), never a JSON field through a string literal, so that a
 * field renamed in the spec fails compilation here. The host kit's {@code RulesReadSpecNamesTest}
 * holds its rules to the same.
 */
class PolicyReadsSpecNamesTest {

  private static final Path SOURCES = Path.of("src/main/java/dev/jarvis/core/policy");

  private static final Pattern LITERAL_FIELD =
      Pattern.compile(
          "\\.(path|get|has|hasNonNull|put|putArray|putObject|set|remove|with|withArray|required"
              + "|findValue)\\(\\s*\"[a-z][a-z0-9_]*\"");

  @Test
  void thePolicyEngineLooksNoFieldUpByAStringLiteral() throws IOException {
    List<String> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(SOURCES)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
        List<String> lines = Files.readAllLines(file);
        for (int i = 0; i < lines.size(); i++) {
          if (LITERAL_FIELD.matcher(lines.get(i)).find()) {
            found.add(file.getFileName() + ":" + (i + 1) + ": " + lines.get(i).strip());
          }
        }
      }
    }
    assertEquals(List.of(), found);
  }
}
