package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.conformance.ConformanceCommand;
import dev.jarvis.core.sample.SampleRecords;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The conformance suite, run the way a host team runs it, passes against the reference host on each
 * of its HTTP runtimes.
 */
class ReferenceHostConformanceTest {

  @TempDir Path reports;

  @ParameterizedTest(name = "on {0}")
  @EnumSource(HttpRuntime.class)
  void theReferenceHostPassesEveryConformanceCheck(HttpRuntime runtime) throws Exception {
    try (ReferenceHost host =
        ReferenceHost.start(
            ReferenceHostConfig.of("conformance-token")
                .withRuntime(runtime)
                .withPolicy(SampleRecords.policy()))) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();

      int code =
          ConformanceCommand.run(
              new String[] {
                "--base-url",
                host.baseUri().toString(),
                "--token",
                "conformance-token",
                "--actor",
                "host-admin",
                "--report-dir",
                reports.toString()
              },
              new PrintStream(out, true, StandardCharsets.UTF_8),
              new PrintStream(err, true, StandardCharsets.UTF_8));

      String progress = out.toString(StandardCharsets.UTF_8);
      assertEquals(0, code, progress + err.toString(StandardCharsets.UTF_8));
      assertTrue(progress.contains("PASS"), progress);
      try (var files = Files.list(reports)) {
        assertEquals(2, files.count(), "a JUnit XML and a Markdown report");
      }
    }
  }
}
