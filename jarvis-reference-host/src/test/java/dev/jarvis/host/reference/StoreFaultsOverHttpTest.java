package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.host.CommitResult;
import dev.jarvis.host.HostStores;
import dev.jarvis.host.IdempotencyStore;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.RecordStore;
import dev.jarvis.host.StoreUnavailableException;
import dev.jarvis.host.WorkSessionStore;
import dev.jarvis.host.reference.ReferenceHostConfig.Readiness;
import dev.jarvis.store.jdbc.StoreSpec;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Store faults over HTTP, on both runtimes: an append the store cannot take is a 503 with {@code
 * Retry-After} and a full {@code ProtocolError}, never a 500, and its same-key retry applies it
 * once; readiness turns DOWN while the store check hangs and UP when it answers, while liveness
 * answers at once throughout; a full embedded store refuses appends whole.
 */
class StoreFaultsOverHttpTest {

  /** The in-memory store, whose readiness check can hang and whose commit can fail as told. */
  static final class SwitchableStores implements HostStores {
    private final HostStores inner = HostStores.inMemory();
    final AtomicBoolean commitFails = new AtomicBoolean();
    volatile CountDownLatch readyHangs = new CountDownLatch(0);

    @Override
    public WorkSessionStore sessions() {
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
      if (commitFails.get()) {
        throw new StoreUnavailableException("injected: the database is unreachable", null);
      }
      return inner.commit(mutation);
    }

    @Override
    public boolean ready() {
      try {
        // As a pool waiting for a connection that never comes.
        readyHangs.await(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return true;
    }
  }

  private static final Readiness QUICK =
      new Readiness(Duration.ofMillis(100), Duration.ofMillis(200));

  /** Readiness DOWN or UP within this long of the store changing (the bound). */
  private static final Duration WITHIN = Duration.ofSeconds(3);

  @TempDir Path dir;
  private final HttpClient http = HttpClient.newHttpClient();

  private int probe(TestHost t, String path) throws Exception {
    return http.send(
            HttpRequest.newBuilder(t.host.baseUri().resolve(path))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  /** Polls the readiness probe until it answers as wanted, liveness answering fast meanwhile. */
  private void awaitReadiness(TestHost t, IntPredicate wanted, String what) throws Exception {
    long deadline = System.nanoTime() + WITHIN.toNanos();
    while (true) {
      long start = System.nanoTime();
      assertEquals(200, probe(t, HealthEndpoints.LIVE));
      Duration live = Duration.ofNanos(System.nanoTime() - start);
      assertTrue(live.compareTo(Duration.ofSeconds(1)) < 0, "liveness took " + live);
      if (wanted.test(probe(t, HealthEndpoints.READY))) {
        return;
      }
      assertTrue(System.nanoTime() - deadline < 0, "readiness not " + what + " within " + WITHIN);
    }
  }

  private static ObjectNode nextEvent(ChainCursor at, String id) {
    return EventChain.next(at, Payloads.event(id, "note.added", Payloads.HUMAN));
  }

  @ParameterizedTest(name = "on {0}")
  @EnumSource(HttpRuntime.class)
  void anAppendTheStoreCannotTakeIs503WithRetryAfterAndItsSameKeyRetryAppliesItOnce(
      HttpRuntime runtime) {
    SwitchableStores stores = new SwitchableStores();
    try (TestHost t = TestHost.started(c -> c.runtime(runtime), b -> b.stores(stores))) {
      assertEquals(201, t.createSession(Payloads.WS).status());
      ChainCursor at = t.cursor();
      Map<String, String> headers = t.scoped(Payloads.HUMAN, at);
      String event = nextEvent(at, "event-1").toString();
      String path = "/work-sessions/" + Payloads.WS + "/events";

      stores.commitFails.set(true);
      Answer refused = t.send("POST", path, headers, event);
      assertEquals(503, refused.status(), refused.text());
      assertEquals(Optional.of("1"), refused.header("Retry-After"));
      assertEquals(Optional.of("v0.1"), refused.header("Jarvis-Protocol-Version"));
      JsonNode error = refused.json();
      assertEquals(List.of(), PayloadValidator.forSpec().validate("ProtocolError", error));
      assertEquals("unknown_state", error.path("error_id").asText());
      assertTrue(error.path("remediation").asText().contains("same Jarvis-Idempotency-Key"));
      assertEquals(at, t.cursor());

      stores.commitFails.set(false);
      assertEquals(201, t.send("POST", path, headers, event).status());
      assertEquals(at.revision() + 1, t.cursor().revision());
    }
  }

  @ParameterizedTest(name = "on {0}")
  @EnumSource(HttpRuntime.class)
  void readinessTurnsDownWhileTheStoreCheckHangsAndUpWhenItAnswersLivenessAnsweringThroughout(
      HttpRuntime runtime) throws Exception {
    SwitchableStores stores = new SwitchableStores();
    try (TestHost t =
        TestHost.started(c -> c.runtime(runtime).readiness(QUICK), b -> b.stores(stores))) {
      assertEquals(200, probe(t, HealthEndpoints.READY));
      CountDownLatch hang = new CountDownLatch(1);
      stores.readyHangs = hang;
      awaitReadiness(t, status -> status == 503, "DOWN");
      // Requests that need no store check are served meanwhile.
      assertEquals(201, t.createSession(Payloads.WS).status());
      stores.readyHangs = new CountDownLatch(0);
      hang.countDown();
      awaitReadiness(t, status -> status == 200, "UP");
    }
  }

  @Test
  void anAppendOnAFullEmbeddedStoreIs503EveryStoredAnswerHasItsEventAndReadinessIsDown()
      throws Exception {
    // A size-limited file: room for the schema and some hundreds of small appends.
    HostStores stores =
        StoreSpec.parse("jdbc:sqlite:" + dir.resolve("full.sqlite") + "?max_page_count=70")
            .open(Optional.empty());
    try (TestHost t = TestHost.started(c -> c.readiness(QUICK), b -> b.stores(stores))) {
      assertEquals(201, t.createSession(Payloads.WS).status());
      assertEquals(200, probe(t, HealthEndpoints.READY));
      String path = "/work-sessions/" + Payloads.WS + "/events";
      List<String> keys = new ArrayList<>();
      List<String> eventIds = new ArrayList<>();
      int accepted = 0;
      int refused = 0;
      for (int i = 0; refused < 10 && i < 5_000; i++) {
        ChainCursor at = t.cursor();
        Map<String, String> headers = t.scoped(Payloads.HUMAN, at);
        Answer a = t.send("POST", path, headers, nextEvent(at, "event-" + i).toString());
        keys.add(headers.get("Jarvis-Idempotency-Key"));
        eventIds.add("event-" + i);
        if (a.status() == 201) {
          accepted++;
        } else {
          assertEquals(503, a.status(), a.text());
          assertTrue(a.header("Retry-After").isPresent());
          refused++;
        }
      }
      assertTrue(accepted > 0);
      assertEquals(10, refused, "the store never filled");
      for (int i = 0; i < keys.size(); i++) {
        boolean answer =
            stores
                .idempotency()
                .find(
                    new IdempotencyStore.Scope(
                        Payloads.HUMAN, "appendJarvisEvent", "v0.1", keys.get(i)),
                    java.time.Instant.EPOCH)
                .isPresent();
        boolean event = stores.sessions().event(Payloads.WS, eventIds.get(i)).isPresent();
        assertEquals(event, answer, eventIds.get(i) + ": a stored answer without its event");
      }
      assertEquals(accepted + 1, stores.sessions().events(Payloads.WS).size());
      assertEquals(accepted + 1, t.cursor().revision());
      // Reads still answer, but the store cannot write: readiness says so.
      awaitReadiness(t, status -> status == 503, "DOWN on a full disk");
    }
  }
}
