package dev.jarvis.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.host.reference.ReferenceHost;
import dev.jarvis.host.reference.ReferenceHostConfig;
import dev.jarvis.samples.SampleRecords;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code load} against the reference host: a short run, every answer checked, cursors agreeing. */
class LoadCommandTest {

  private static final Logger REQUEST_LOG = Logger.getLogger(ServeCommand.REQUEST_LOG);

  @TempDir Path dir;

  @ParameterizedTest
  @CsvSource({
    "appendJarvisEvent, false",
    "recordPolicyDecision, false",
    "getWorkSession, false",
    "appendJarvisEvent, true",
    "recordPolicyDecision, true",
    "getWorkSession, true"
  })
  void aShortRunReportsThroughputLatencyAndAgreeingCursors(String operation, boolean light)
      throws Exception {
    REQUEST_LOG.setLevel(Level.WARNING);
    Path json = dir.resolve("load.json");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try (ReferenceHost host =
        ReferenceHost.start(
            ReferenceHostConfig.demo("t0k3n").policy(SampleRecords.policy()).build())) {
      java.util.List<String> args =
          new java.util.ArrayList<>(
              java.util.List.of(
                  "load",
                  "--base-url",
                  host.baseUri().toString(),
                  "--token",
                  "t0k3n",
                  "--connections",
                  "2",
                  "--duration",
                  "1",
                  "--warmup",
                  "0",
                  "--operation",
                  operation,
                  "--json",
                  json.toString()));
      if (light) {
        args.add("--light");
      }
      int code =
          new JarvisCli()
              .run(
                  args.toArray(new String[0]),
                  new ByteArrayInputStream(new byte[0]),
                  new PrintStream(out, true, StandardCharsets.UTF_8),
                  new PrintStream(err, true, StandardCharsets.UTF_8));
      String text = out.toString(StandardCharsets.UTF_8);
      assertEquals(0, code, text + err.toString(StandardCharsets.UTF_8));
      assertTrue(text.contains("every cursor agrees with the host: yes"), text);
    } finally {
      REQUEST_LOG.setLevel(null);
    }
    JsonNode results = JarvisJson.mapper().readTree(Files.readAllBytes(json));
    assertTrue(results.path("accepted").asLong() > 0, results.toString());
    assertEquals(0, results.path("off_spec_answers").asLong(), results.toString());
    assertTrue(results.path("latency_micros").path("p99").asLong() > 0, results.toString());
  }

  @Test
  void aHostThatCannotBeReachedIsExitTwo() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        new JarvisCli()
            .run(
                new String[] {"load", "--base-url", "http://127.0.0.1:1", "--token", "t"},
                new ByteArrayInputStream(new byte[0]),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(2, code);
    assertEquals(1, err.toString(StandardCharsets.UTF_8).lines().count());
  }
}
