package dev.jarvis.host;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.samples.SampleRecords;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A store that cannot serve is answered 503 with {@code Retry-After} and a full {@code
 * ProtocolError} that says a retry with the same key is safe (and, when the commit's answer was
 * lost, that its outcome is unknown and the same key settles it); never 500, which stays the answer
 * to a defect.
 */
class StoreFaultAnswersTest {

  /** The in-memory store, failing as told: before its commit, or after it (the answer lost). */
  static final class FaultyStores implements HostStores {
    private final HostStores inner = HostStores.inMemory();
    volatile Optional<StoreUnavailableException.Outcome> commitFault = Optional.empty();
    volatile boolean readsFail;
    volatile RuntimeException defect;

    @Override
    public WorkSessionStore sessions() {
      if (readsFail) {
        throw new StoreUnavailableException("the pool had no connection within 2 s", null);
      }
      return inner.sessions();
    }

    @Override
    public RecordStore records() {
      return inner.records();
    }

    @Override
    public IdempotencyStore idempotency() {
      return inner.idempotency();
    }

    @Override
    public CommitResult commit(Mutation mutation) {
      if (defect != null) {
        throw defect;
      }
      if (commitFault.isEmpty()) {
        return inner.commit(mutation);
      }
      if (commitFault.get() == StoreUnavailableException.Outcome.UNKNOWN) {
        inner.commit(mutation); // it committed; its answer never came back
      }
      throw new StoreUnavailableException(
          "injected", null, commitFault.get(), Duration.ofMillis(2_500));
    }
  }

  private final FaultyStores stores = new FaultyStores();
  private final List<FailedCall> failed = new CopyOnWriteArrayList<>();
  private final KitHost kit =
      new KitHost(
          HostAuth.anyCaller(),
          "",
          b ->
              b.stores(stores)
                  .listener(
                      new ProtocolListener() {
                        @Override
                        public void failed(FailedCall failure) {
                          failed.add(failure);
                        }
                      }));

  private Supplier<StoredResponse> appendOnce(String eventId) {
    ObjectNode draft =
        SampleRecords.eventDraft(eventId, KitHost.WS, KitHost.HUMAN, "note.recorded", kit.now());
    JsonNode event = EventChain.next(kit.cursor(KitHost.WS), draft);
    return kit.prepare(
        "appendJarvisEvent", Map.of("work_session_id", KitHost.WS), KitHost.HUMAN, event, "");
  }

  /** The answer is a 503 a client can act on: a spec-valid ProtocolError, headers, Retry-After. */
  private static JsonNode assertStoreUnavailable(StoredResponse answer) throws IOException {
    assertEquals(503, answer.status());
    assertEquals("3", answer.headers().get("Retry-After"), "2.5 s, rounded up to whole seconds");
    assertEquals("v0.1", answer.headers().get(JarvisHeaders.PROTOCOL_VERSION));
    assertEquals("application/json", answer.headers().get("Content-Type"));
    JsonNode error = JarvisJson.mapper().readTree(answer.body());
    assertEquals(List.of(), PayloadValidator.forSpec().validate("ProtocolError", error));
    assertEquals("unknown_state", error.path("error_id").asText());
    assertTrue(
        error.path("remediation").asText().contains("same Jarvis-Idempotency-Key"),
        error.toString());
    return error;
  }

  @Test
  void anAppendTheStoreCannotTakeIsAnswered503AndItsRetryWithTheSameKeyAppliesItOnce()
      throws IOException {
    KitHost.ok(kit.createSession(KitHost.WS));
    ChainCursor before = kit.cursor(KitHost.WS);
    Supplier<StoredResponse> append = appendOnce("event-2");
    stores.commitFault = Optional.of(StoreUnavailableException.Outcome.NOT_WRITTEN);

    JsonNode error = assertStoreUnavailable(append.get());
    assertTrue(error.path("reason").asText().contains("nothing of this request was written"));
    assertEquals(before, kit.cursor(KitHost.WS));
    assertEquals(1, failed.size());
    assertEquals(503, failed.get(0).httpStatus());
    assertTrue(failed.get(0).storeUnavailable());
    assertEquals(error.path("trace_id").asText(), failed.get(0).traceId());

    stores.commitFault = Optional.empty();
    assertEquals(201, append.get().status());
    assertEquals(before.revision() + 1, kit.cursor(KitHost.WS).revision());
  }

  @Test
  void aCommitWhoseAnswerWasLostIsAnUnknownOutcomeThatTheSameKeySettles() throws IOException {
    KitHost.ok(kit.createSession(KitHost.WS));
    ChainCursor before = kit.cursor(KitHost.WS);
    Supplier<StoredResponse> append = appendOnce("event-2");
    stores.commitFault = Optional.of(StoreUnavailableException.Outcome.UNKNOWN);

    JsonNode error = assertStoreUnavailable(append.get());
    assertTrue(error.path("reason").asText().contains("unknown"), error.toString());
    assertTrue(error.path("remediation").asText().contains("settles"), error.toString());

    // It had committed: the retry replays the first answer and appends nothing more.
    stores.commitFault = Optional.empty();
    StoredResponse retry = append.get();
    assertEquals(201, retry.status());
    StoredResponse again = append.get();
    assertArrayEquals(retry.body(), again.body());
    assertEquals(before.revision() + 1, kit.cursor(KitHost.WS).revision());
  }

  @Test
  void aReadTheStoreCannotServeIsAnswered503() throws IOException {
    KitHost.ok(kit.createSession(KitHost.WS));
    stores.readsFail = true;
    KitHost.Answer answer = kit.read("getWorkSession", KitHost.WS, KitHost.HUMAN);
    stores.readsFail = false;
    assertEquals(503, answer.status());
    assertEquals("unknown_state", answer.errorId());
  }

  @Test
  void aDefectIsStillAHostFailureAnswered500WithoutRetryAfter() {
    KitHost.ok(kit.createSession(KitHost.WS));
    stores.defect = new IllegalStateException("a bug");
    StoredResponse answer = appendOnce("event-2").get();
    assertEquals(500, answer.status());
    assertTrue(!answer.headers().containsKey("Retry-After"));
  }

  @Test
  void aBindingThatCatchesAStoreFaultGetsTheSame503() throws IOException {
    StoredResponse answer =
        kit.host.hostFailure(
            new IllegalStateException(
                "wrapped by a binding",
                new StoreUnavailableException(
                    "down",
                    null,
                    StoreUnavailableException.Outcome.NOT_WRITTEN,
                    Duration.ofSeconds(3))));
    assertStoreUnavailable(answer);
  }
}
