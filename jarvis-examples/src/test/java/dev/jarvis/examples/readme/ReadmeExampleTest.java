package dev.jarvis.examples.readme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.WorkSession;
import dev.jarvis.samples.SampleRecords;
import dev.jarvis.testkit.JarvisHostStub;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The client example on the README's first screen is code: this test takes it from README.md,
 * compiles it and runs it against the test kit's stub host.
 */
class ReadmeExampleTest {

  @RegisterExtension JarvisHostStub host = JarvisHostStub.create();

  @TempDir Path work;

  static String readmeSnippet() throws Exception {
    String readme = Files.readString(Path.of("..", "README.md"));
    Matcher block = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL).matcher(readme);
    assertTrue(block.find(), "README.md has a java example");
    return block.group(1);
  }

  @Test
  void theReadmeClientExampleCompilesAndRunsAgainstAStubHost() throws Exception {
    String snippet = readmeSnippet();
    assertTrue(snippet.lines().count() <= 10, "the example fits in 10 lines");
    Path source = work.resolve("ReadmeSnippet.java");
    Files.writeString(
        source,
        """
        import dev.jarvis.client.*;
        import dev.jarvis.core.error.*;
        import dev.jarvis.model.*;

        public class ReadmeSnippet {
          public static void run(
              String hostUrl, String token, WorkSession newSession, PolicyDecision planned) {
        %s
          }
        }
        """
            .formatted(snippet));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
    int compiled =
        javac.run(
            null,
            diagnostics,
            diagnostics,
            "-classpath",
            System.getProperty("java.class.path"),
            "-d",
            work.toString(),
            source.toString());
    assertEquals(0, compiled, diagnostics.toString(StandardCharsets.UTF_8));

    String now = Instant.now().toString().replaceAll("\\.\\d+Z$", "Z");
    host.givenWorker(SampleRecords.worker("worker-human-1", "human"))
        .givenWorker(SampleRecords.worker("worker-agent-1", "agent"))
        .givenActor(SampleRecords.actor("actor-human-1", "worker-human-1", "human", now))
        .givenActor(SampleRecords.actor("actor-agent-1", "worker-agent-1", "agent", now));
    JsonNode session =
        SampleRecords.workSession(
            "ws-readme", "actor-human-1", "worker-human-1", "worker-agent-1", now);
    JsonNode decision =
        SampleRecords.policyDecision("pd-readme", "ws-readme", "actor-agent-1", now);
    PrintStream stdout = System.out;
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    try (URLClassLoader loader =
        new URLClassLoader(new URL[] {work.toUri().toURL()}, getClass().getClassLoader())) {
      Method run =
          loader
              .loadClass("ReadmeSnippet")
              .getMethod(
                  "run", String.class, String.class, WorkSession.class, PolicyDecision.class);
      System.setOut(new PrintStream(printed, true, StandardCharsets.UTF_8));
      run.invoke(
          null,
          host.baseUrl(),
          "test-token",
          JarvisJson.mapper().treeToValue(session, WorkSession.class),
          JarvisJson.mapper().treeToValue(decision, PolicyDecision.class));
    } finally {
      System.setOut(stdout);
    }

    assertEquals(
        "allow at ChainCursor[revision=2, lastEventHash=" + lastHash() + "]\n",
        printed.toString(StandardCharsets.UTF_8));
    assertEquals(List.of(), host.receivedViolations());
  }

  private String lastHash() {
    return host.workSession("ws-readme").orElseThrow().path("last_event_hash").asText();
  }
}
