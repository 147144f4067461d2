package dev.jarvis.apicheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/compatibility.md promises that adding an option is a minor change that breaks no caller. A
 * public record cannot keep that promise: a new component changes its canonical constructor and
 * every record pattern over it. So no published type named as options is a record.
 */
class OptionsAreNotRecordsTest {

  private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

  // The names this codebase gives to option sets.
  private static final Pattern OPTIONS =
      Pattern.compile(
          "^public (?:static )?final class ([\\w.$]*?(?:Config|Options|Limits|Settings|Timeouts"
              + "|DeliveryPolicy)) extends java\\.lang\\.Record");

  @Test
  void noPublishedOptionSetIsARecord() throws IOException {
    List<Path> snapshots = snapshots();
    assertFalse(snapshots.isEmpty(), "no */api/*.api snapshot found under " + ROOT);
    List<String> records = new ArrayList<>();
    for (Path snapshot : snapshots) {
      for (String line : Files.readAllLines(snapshot)) {
        Matcher m = OPTIONS.matcher(line);
        if (m.find()) {
          records.add(m.group(1));
        }
      }
    }
    assertEquals(List.of(), records, "option sets published as records");
  }

  @Test
  void theCheckRecognisesAnOptionSetPublishedAsARecord() {
    assertTrue(
        OPTIONS
            .matcher(
                "public final class dev.jarvis.host.EventStreamLimits extends java.lang.Record")
            .find(),
        "a record named as options must be caught");
    assertFalse(
        OPTIONS
            .matcher("public final class dev.jarvis.host.ActorWithWorker extends java.lang.Record")
            .find(),
        "a value record must pass");
  }

  private static List<Path> snapshots() throws IOException {
    try (Stream<Path> modules = Files.list(ROOT)) {
      List<Path> found = new ArrayList<>();
      for (Path module : modules.filter(Files::isDirectory).toList()) {
        Path api = ApiSnapshotCheck.snapshotFile(ROOT, module.getFileName().toString());
        if (Files.isRegularFile(api)) {
          found.add(api);
        }
      }
      return found;
    }
  }
}
