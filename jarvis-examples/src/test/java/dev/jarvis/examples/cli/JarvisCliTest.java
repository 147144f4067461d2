package dev.jarvis.examples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class JarvisCliTest {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return new JarvisCli()
        .run(
            args,
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  @Test
  void withNoArgumentsItListsTheFifteenOperations() {
    assertEquals(0, run());
    String text = out.toString(StandardCharsets.UTF_8);
    assertTrue(text.contains("POST /work-sessions/{work_session_id}/events"), text);
    assertTrue(text.contains("appendJarvisEvent"), text);
    assertTrue(text.contains("15 operations"), text);
  }

  @Test
  void anUnknownSubcommandIsOneLineOnStderrAndExitTwo() {
    assertEquals(2, run("frobnicate"));
    String message = err.toString(StandardCharsets.UTF_8);
    assertEquals(1, message.lines().count(), message);
    assertTrue(message.contains("frobnicate"), message);
  }
}
