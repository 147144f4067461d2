package dev.jarvis.examples.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.core.JarvisJson;
import dev.jarvis.examples.cli.DemoPolicy;
import dev.jarvis.host.reference.ReferenceHost;
import dev.jarvis.host.reference.ReferenceHostConfig;
import dev.jarvis.testkit.conformance.ConformanceCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The conformance suite, run the way a host team runs it, passes against the reference host. */
class ReferenceHostConformanceTest {

  @TempDir Path reports;

  @Test
  void theReferenceHostPassesEveryConformanceCheck() throws Exception {
    try (ReferenceHost host =
        ReferenceHost.start(
            ReferenceHostConfig.of("conformance-token")
                .withPolicy(JarvisJson.mapper().readTree(DemoPolicy.JSON)))) {
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
