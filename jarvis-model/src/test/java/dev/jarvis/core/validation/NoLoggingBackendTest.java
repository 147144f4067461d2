package dev.jarvis.core.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
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
    Process process = new ProcessBuilder(launchLikeThisJvm()).redirectErrorStream(true).start();
    String output = read(process);

    assertEquals(0, process.waitFor(), output);
    assertEquals("validated", output.strip(), output);
    assertFalse(output.contains("SLF4J"), output);
  }

  /**
   * The child runs as these tests do: on the class path, or (JPMS) on the module path with the test
   * classes patched into the module, where SLF4J finds its providers through the module's {@code
   * uses}.
   */
  private static List<String> launchLikeThisJvm() {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(List.of("-cp", System.getProperty("java.class.path")));
    Module module = FirstValidation.class.getModule();
    String modulePath = System.getProperty("jdk.module.path");
    if (!module.isNamed() || modulePath == null) {
      command.add(FirstValidation.class.getName());
      return command;
    }
    command.addAll(List.of("--module-path", modulePath));
    command.addAll(List.of("--patch-module", module.getName() + "=" + testClasses()));
    command.addAll(List.of("-m", module.getName() + "/" + FirstValidation.class.getName()));
    return command;
  }

  /** Where this class was loaded from: the test classes patched into the module. */
  private static Path testClasses() {
    String file = FirstValidation.class.getName().replace('.', '/') + ".class";
    try {
      Path loaded = Path.of(FirstValidation.class.getClassLoader().getResource(file).toURI());
      return loaded
          .getRoot()
          .resolve(loaded.subpath(0, loaded.getNameCount() - Path.of(file).getNameCount()));
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String read(Process process) throws IOException, InterruptedException {
    byte[] bytes = process.getInputStream().readAllBytes();
    process.waitFor(60, TimeUnit.SECONDS);
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
