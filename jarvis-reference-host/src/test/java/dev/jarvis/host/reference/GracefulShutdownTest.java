package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.host.CommitResult;
import dev.jarvis.host.HostStores;
import dev.jarvis.host.IdempotencyStore;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.RecordStore;
import dev.jarvis.host.WorkSessionStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Health endpoints outside the protocol, and a shutdown that lets requests in flight finish. */
class GracefulShutdownTest {

  /** In-memory stores whose commits wait for a release once armed, and that note their close. */
  private static final class HeldStores implements HostStores {
    final HostStores inner = HostStores.inMemory();
    final AtomicBoolean armed = new AtomicBoolean();
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch release = new CountDownLatch(1);
    final AtomicBoolean closed = new AtomicBoolean();

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
      if (armed.get()) {
        entered.countDown();
        try {
          release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return inner.commit(mutation);
    }

    @Override
    public void close() {
      closed.set(true);
    }
  }

  private final HttpClient http = HttpClient.newHttpClient();

  private int status(URI uri) throws Exception {
    return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  @Test
  void livenessAndReadinessAnswerWithoutHostAuthOutsideTheProtocolsPaths() throws Exception {
    try (ReferenceHost host = ReferenceHost.start(ReferenceHostConfig.demo("t").build())) {
      assertEquals(200, status(host.baseUri().resolve("/health/live")));
      assertEquals(200, status(host.baseUri().resolve("/health/ready")));
    }
  }

  @ParameterizedTest(name = "on {0}")
  @EnumSource(HttpRuntime.class)
  void closingLetsTheRequestInFlightFinishRefusesNewOnesAndThenClosesTheStores(HttpRuntime runtime)
      throws Exception {
    HeldStores stores = new HeldStores();
    try (TestHost t = TestHost.started(c -> c.runtime(runtime), b -> b.stores(stores))) {
      stores.armed.set(true);
      CompletableFuture<Answer> inFlight =
          CompletableFuture.supplyAsync(
              () ->
                  t.send(
                      "PUT",
                      "/workers/" + Payloads.AGENT_WORKER,
                      t.mutation(TestHost.ADMIN),
                      Payloads.worker(Payloads.AGENT_WORKER, "agent").toString()));
      assertTrue(stores.entered.await(30, TimeUnit.SECONDS));
      CompletableFuture<Void> closing =
          CompletableFuture.runAsync(() -> t.host.close(Duration.ofSeconds(30)));
      // Draining begins on the closing thread, whenever it gets to run: poll until new requests
      // are refused, as a client would retry, bounded by a deadline rather than a count of polls
      // (a slow machine answers many polls before that thread runs). Readiness turns 503 before
      // the server refuses requests, so by then the probe says 503 too.
      Answer refused = t.get("/work-sessions/none", Payloads.HUMAN);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (refused.status() != 503 && System.nanoTime() - deadline < 0) {
        refused = t.get("/work-sessions/none", Payloads.HUMAN);
      }
      assertEquals(503, refused.status());
      // The drain's answer is one a client can act on: a ProtocolError, the protocol headers.
      assertEquals(List.of(), PayloadValidator.forSpec().validate("ProtocolError", refused.json()));
      assertEquals("unknown_state", refused.errorId());
      assertEquals(Optional.of("1"), refused.header("Retry-After"));
      assertEquals(Optional.of("v0.1"), refused.header("Jarvis-Protocol-Version"));
      assertEquals(503, status(t.host.baseUri().resolve("/health/ready")));
      assertFalse(stores.closed.get(), "the stores stay open while a request runs");
      stores.release.countDown();
      assertEquals(200, inFlight.get(30, TimeUnit.SECONDS).status());
      closing.get(30, TimeUnit.SECONDS);
      assertTrue(stores.closed.get());
    }
  }
}
