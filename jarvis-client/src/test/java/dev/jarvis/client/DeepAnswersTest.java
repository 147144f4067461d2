package dev.jarvis.client;

import static com.github.tomakehurst.wiremock.client.WireMock.put;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.jarvis.client.ClientFixture.protocolResponse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JsonNesting;
import dev.jarvis.model.Worker;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Answers nest at most {@link JsonNesting#MAX_LEVELS} levels, as requests do. The client judges the
 * nesting before it walks the answer: its checks recurse, and on a small stack an answer of 128
 * levels overflowed it while the validator was not yet compiled.
 */
class DeepAnswersTest {

  private static final String WORKER = "worker-1";
  private static final String PATH = "/workers/" + WORKER;

  /** A quarter of the JVM's usual default: callers' threads can have as little. */
  private static final long SMALL_STACK_BYTES = 256 * 1024;

  private static final int MAX = JsonNesting.MAX_LEVELS;

  @RegisterExtension final ClientFixture host = new ClientFixture();

  @Test
  void anAnswerNestedToTheLimitIsReadOnASmallStack() {
    answerNested(MAX);

    Object outcome = callOnASmallStack();

    assertInstanceOf(Worker.class, outcome, String.valueOf(outcome));
  }

  @ParameterizedTest(name = "an answer nested {0} levels deep is off-spec, on a small stack")
  @ValueSource(ints = {MAX + 1, 128, 1_000, 5_000})
  void anAnswerNestedPastTheLimitIsOffSpecOnASmallStack(int levels) {
    answerNested(levels);

    Object outcome = callOnASmallStack();

    JarvisInvalidResponseException e =
        assertInstanceOf(JarvisInvalidResponseException.class, outcome, String.valueOf(outcome));
    assertEquals(200, e.status());
    assertTrue(e.getMessage().contains("nests deeper than " + MAX + " levels"), e.getMessage());
  }

  /**
   * A Worker whose extension value nests arrays down to {@code levels} in all: the Worker is level
   * 1, its {@code extensions} level 2. Written as text: Jackson will not write a tree deeper than
   * 1,000 levels.
   */
  private void answerNested(int levels) {
    ObjectNode worker = Records.json("Worker").put("id", WORKER);
    worker.putObject("extensions").put("org.example.depth", "nested-here");
    int arrays = levels - 2;
    String body =
        worker.toString().replace("\"nested-here\"", "[".repeat(arrays) + "1" + "]".repeat(arrays));
    host.wireMock.stubFor(put(urlPathEqualTo(PATH)).willReturn(protocolResponse(200, body)));
  }

  /** The call's result or what it threw, from a thread with a small stack. */
  private Object callOnASmallStack() {
    AtomicReference<Object> outcome = new AtomicReference<>();
    Thread caller =
        new Thread(
            null,
            () -> {
              try {
                Worker worker = Records.of(Worker.class);
                worker.setId(WORKER);
                outcome.set(host.client.registerWorker(worker));
              } catch (Throwable failure) {
                outcome.set(failure);
              }
            },
            "small-stack-caller",
            SMALL_STACK_BYTES);
    caller.start();
    try {
      caller.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
    return outcome.get();
  }
}
