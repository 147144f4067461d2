package dev.jarvis.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.jarvis.client.pipeline.JarvisPipeline;
import dev.jarvis.client.pipeline.JarvisPolicy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/architecture.md} states the order of the client's links in a block a reader copies
 * into their head; this holds that block to what {@code client.pipeline()} reports, so the page
 * cannot drift from the code again.
 */
class ArchitectureDocPipelineTest {

  private static final Path DOC =
      Path.of("").toAbsolutePath().getParent().resolve("docs/architecture.md");

  @Test
  void the_pipeline_order_the_architecture_page_states_is_the_order_the_client_runs()
      throws Exception {
    List<String> lines = Files.readAllLines(DOC);
    List<String> perCall = stated(lines, "per call:", "mine-per-call");
    List<String> perAttempt = stated(lines, "per attempt:", "mine-per-attempt");

    try (JarvisClient client =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri("http://127.0.0.1:9")
                .actorId("actor-agent-1")
                .addPerCallPolicy(JarvisPolicy.named("mine-per-call", (r, next) -> next.send(r)))
                .addPerAttemptPolicy(
                    JarvisPolicy.named("mine-per-attempt", (r, next) -> next.send(r)))
                .build())) {
      JarvisPipeline built = client.pipeline();
      assertEquals(perCall, built.perCall().stream().map(JarvisPolicy::name).toList());
      assertEquals(perAttempt, built.perAttempt().stream().map(JarvisPolicy::name).toList());
    }
  }

  /** The links of the line starting {@code prefix}; the user's policies stand for {@code mine}. */
  private static List<String> stated(List<String> lines, String prefix, String mine) {
    String line =
        lines.stream()
            .map(String::strip)
            .filter(l -> l.startsWith(prefix))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no '" + prefix + "' line in " + DOC));
    return Arrays.stream(line.substring(prefix.length()).split("→"))
        .map(String::strip)
        .map(link -> link.startsWith("<your ") ? mine : link)
        .toList();
  }
}
