package dev.jarvis.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.client.internal.BuiltInPipeline;
import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.client.pipeline.PipelineResponse;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The built-in links are the pipeline's by identity, and their names are theirs alone: a policy of
 * the caller's named {@code retry} (or any built-in's name) is refused when it is added, so {@code
 * client.pipeline()} never shows two links of one name and no policy can be taken for a built-in.
 */
class BuiltInNamesTest {

  private static JarvisClientOptions.Builder options() {
    return JarvisClientOptions.builder()
        .baseUri("http://127.0.0.1:9")
        .actorId("actor-agent-1")
        .hostAuth("Bearer t");
  }

  private static JarvisPolicy passOn(String name) {
    return JarvisPolicy.named(name, (request, next) -> next.send(request));
  }

  static Stream<Arguments> builtInNamesByPlace() {
    try (JarvisClient plain = JarvisClient.create(options().build())) {
      BiFunction<JarvisClientOptions.Builder, JarvisPolicy, ?> perCall =
          JarvisClientOptions.Builder::addPerCallPolicy;
      BiFunction<JarvisClientOptions.Builder, JarvisPolicy, ?> perAttempt =
          JarvisClientOptions.Builder::addPerAttemptPolicy;
      return plain.pipeline().names().stream()
          .flatMap(
              name ->
                  Stream.of(
                      Arguments.of(name, "per call", perCall),
                      Arguments.of(name, "per attempt", perAttempt)));
    }
  }

  @ParameterizedTest(name = "{0}, {1}")
  @MethodSource("builtInNamesByPlace")
  void aPolicyOfYoursNamedLikeABuiltInLinkIsRefusedWhenAdded(
      String name, String place, BiFunction<JarvisClientOptions.Builder, JarvisPolicy, ?> add) {
    JarvisClientOptions.Builder builder = options();
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> add.apply(builder, passOn(name)));
    assertTrue(e.getMessage().contains("'" + name + "'"), e.getMessage());
    assertTrue(e.getMessage().contains("a name of its own"), e.getMessage());
    // Nothing was added: the options build, and the pipeline is the built-in one.
    try (JarvisClient client = JarvisClient.create(builder.build())) {
      assertEquals(BuiltInPipeline.NAMES.size(), client.pipeline().names().size());
    }
  }

  @Test
  void theReservedNamesAreExactlyTheBuiltInLinksNames() {
    try (JarvisClient plain = JarvisClient.create(options().build())) {
      assertEquals(BuiltInPipeline.NAMES, Set.copyOf(plain.pipeline().names()));
      assertEquals(BuiltInPipeline.NAMES.size(), plain.pipeline().names().size());
    }
  }

  @Test
  void aNameLikeABuiltInsOnlyInCaseOrSpellingIsYoursToTake() {
    try (JarvisClient client =
        JarvisClient.create(
            options()
                .addPerCallPolicy(passOn("Retry"))
                .addPerAttemptPolicy(passOn("retry-budget"))
                .build())) {
      assertEquals("Retry", client.pipeline().names().get(0));
      assertTrue(client.pipeline().names().contains("retry-budget"));
    }
  }

  @Test
  void aPolicyWhoseNameTurnsIntoABuiltInsAfterItWasAddedIsRefusedWhenTheClientIsMade() {
    AtomicReference<String> name = new AtomicReference<>("my-policy");
    JarvisPolicy shifty =
        new JarvisPolicy() {
          @Override
          public CompletableFuture<PipelineResponse> send(
              dev.jarvis.client.pipeline.PipelineRequest request, Next next) {
            return next.send(request);
          }

          @Override
          public String name() {
            return name.get();
          }
        };
    JarvisClientOptions options = options().addPerCallPolicy(shifty).build();
    name.set("work-session-cursor");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> JarvisClient.create(options));
    assertTrue(e.getMessage().contains("'work-session-cursor'"), e.getMessage());
    assertEquals(List.of(shifty), options.perCallPolicies());
  }
}
