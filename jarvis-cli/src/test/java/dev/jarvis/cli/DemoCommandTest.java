package dev.jarvis.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.validation.PayloadValidator;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's main job: the walkthrough against the embedded reference host, over loopback. */
class DemoCommandTest {

  @TempDir Path dir;

  @Test
  void theDemoRunsTheWholeWalkthroughAndWritesAValidManifest() throws Exception {
    Path manifest = dir.resolve("manifest.json");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    int code =
        new JarvisCli()
            .run(
                new String[] {"demo", "--out", manifest.toString()},
                new ByteArrayInputStream(new byte[0]),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));

    String text = out.toString(StandardCharsets.UTF_8);
    assertEquals(0, code, text + err.toString(StandardCharsets.UTF_8));
    assertTrue(text.contains("OutcomeReport"), text);
    assertTrue(text.contains("PASS manifest_root"), text);
    assertTrue(text.contains("Verdict: PASSED"), text);
    assertTrue(text.strip().endsWith(manifest.toAbsolutePath().toString()), text);
    JsonNode written = JarvisJson.mapper().readTree(Files.readAllBytes(manifest));
    assertEquals(
        java.util.List.of(), PayloadValidator.forSpec().validate("EvidenceManifest", written));
  }

  @Test
  void aBaseUrlWithoutATokenIsAUsageError() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        new JarvisCli()
            .run(
                new String[] {"demo", "--base-url", "http://127.0.0.1:1"},
                new ByteArrayInputStream(new byte[0]),
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    assertEquals(2, code);
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("--token"));
  }
}
