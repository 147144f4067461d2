package dev.jarvis.core.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An application with no SLF4J backend (this module's test class path has none) sees no SLF4J
 * warning when the validator starts: run in a JVM of its own, since SLF4J initialises once.
 */
class NoLoggingBackendTest {

  /** Validates one payload and exits: what an application's first call does. */
  public static final class FirstValidation {
    public static void main(String[] args) {
      PayloadValidator.forSpec().validate("Worker", "{}");
      System.out.println("validated");
    }
  }

  @Test
  void theValidatorStartsWithoutAnSlf4jWarningWhenThereIsNoBackend() throws Exception {
    Process process =
        new ProcessBuilder(
                List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp",
                    System.getProperty("java.class.path"),
                    FirstValidation.class.getName()))
            .redirectErrorStream(true)
            .start();
    String output = read(process);

    assertEquals(0, process.waitFor(), output);
    assertEquals("validated", output.strip(), output);
    assertFalse(output.contains("SLF4J"), output);
  }

  private static String read(Process process) throws IOException, InterruptedException {
    byte[] bytes = process.getInputStream().readAllBytes();
    process.waitFor(60, TimeUnit.SECONDS);
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
