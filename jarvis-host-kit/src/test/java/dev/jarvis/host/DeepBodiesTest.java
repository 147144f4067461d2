package dev.jarvis.host;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.samples.SampleRecords;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Request bodies nest at most {@link ProtocolHost#MAX_NESTING_LEVELS} levels, and the host judges
 * any body on a small thread stack: a deeply nested body once overflowed the stack of the worker
 * thread judging it, which died with the request unanswered.
 */
class DeepBodiesTest {

  /** A quarter of the JVM's usual default; some servers' worker threads have no more. */
  private static final long SMALL_STACK_BYTES = 256 * 1024;

  private static final int MAX = ProtocolHost.MAX_NESTING_LEVELS;

  private final KitHost kit = new KitHost();

  @Test
  void aBodyNestedToTheLimitIsAcceptedOnASmallStack() {
    KitHost.Answer answer = onSmallStack(registration("worker-deep", MAX));

    assertEquals(200, answer.status(), answer.body().toString());
    assertTrue(kit.record(RecordKind.WORKER, "worker-deep").isPresent());
  }

  @ParameterizedTest(name = "a body nested {0} levels deep is refused and nothing is stored")
  @ValueSource(ints = {MAX + 1, 1_000, 5_000})
  void aBodyNestedPastTheLimitIsRefusedOnASmallStackAndNothingIsStored(int levels) {
    KitHost.Answer answer = onSmallStack(registration("worker-deeper", levels));

    assertEquals(400, answer.status(), answer.body().toString());
    assertEquals("unknown_state", answer.errorId());
    assertEquals(
        "The body nests deeper than " + MAX + " levels of arrays and objects.",
        answer.body().path("reason").asText());
    assertTrue(kit.record(RecordKind.WORKER, "worker-deeper").isEmpty());
  }

  /**
   * A Worker whose extension value nests arrays down to {@code levels} in all: the Worker object is
   * level 1, its {@code extensions} level 2. Written as text: Jackson will not write a tree deeper
   * than 1,000 levels.
   */
  private Supplier<StoredResponse> registration(String id, int levels) {
    ObjectNode worker = SampleRecords.worker(id, "human");
    worker.putObject("extensions").put("org.example.depth", "nested-here");
    int arrays = levels - 2;
    String text =
        worker.toString().replace("\"nested-here\"", "[".repeat(arrays) + "1" + "]".repeat(arrays));
    byte[] raw = text.getBytes(StandardCharsets.UTF_8);
    return kit.prepare("registerWorker", Map.of("worker_id", id), KitHost.ADMIN, raw, "");
  }

  private static KitHost.Answer onSmallStack(Supplier<StoredResponse> request) {
    AtomicReference<Object> outcome = new AtomicReference<>();
    Thread thread =
        new Thread(
            null,
            () -> {
              try {
                outcome.set(request.get());
              } catch (Throwable failure) {
                outcome.set(failure);
              }
            },
            "small-stack",
            SMALL_STACK_BYTES);
    thread.start();
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
    if (outcome.get() instanceof StoredResponse response) {
      return KitHost.answerOf(response);
    }
    throw new AssertionError("the host did not answer", (Throwable) outcome.get());
  }
}
