package dev.jarvis.client;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.client.pipeline.PipelineResponse;
import dev.jarvis.model.PolicyDecision;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AsyncTest {

  private static final String PATH = ClientFixture.DECISIONS;

  private final List<Thread> threads = Collections.synchronizedList(new ArrayList<>());

  /** Notes the thread each step of a call runs on, on the way down and on the way back. */
  private final JarvisPolicy whereItRuns =
      JarvisPolicy.named(
          "where-it-runs",
          (request, next) -> {
            threads.add(Thread.currentThread());
            return next.send(request)
                .whenComplete((answer, failure) -> threads.add(Thread.currentThread()));
          });

  private ClientFixture host;

  @AfterEach
  void stop() {
    host.close();
  }

  private void start(UnaryOperator<JarvisClientOptions.Builder> options) {
    host = new ClientFixture(options);
    host.stubWorkSessionRead();
  }

  /** A sleeper whose asynchronous wait is {@code delay} and which fails if put to sleep. */
  private static Sleeper timerOnly(BiFunction<Duration, Executor, CompletableFuture<Void>> delay) {
    return new Sleeper() {
      @Override
      public void sleep(Duration duration) {
        throw new AssertionError("an asynchronous call must not put a thread to sleep");
      }

      @Override
      public CompletableFuture<Void> delay(Duration duration, Executor executor) {
        return delay.apply(duration, executor);
      }
    };
  }

  private static boolean onTheCommonPool(Thread thread) {
    return thread instanceof ForkJoinWorkerThread worker
        && worker.getPool() == ForkJoinPool.commonPool();
  }

  @Test
  void asyncCallsRunOnTheClientsOwnThreadsAndNeverOnTheCommonPool() {
    start(b -> b.addPerCallPolicy(whereItRuns).addPerAttemptPolicy(whereItRuns));
    host.firstAnswerThenDecision(PATH, aResponse().withStatus(503));

    JarvisResponse<PolicyDecision> response =
        host.client.executeAsync(ClientFixture.recordDecision()).join();

    assertEquals(2, response.attempts());
    // the call (per call, down and up) + three attempts, the re-read's and two (down and up)
    assertEquals(8, threads.size());
    for (Thread thread : threads) {
      assertFalse(onTheCommonPool(thread), thread.getName());
      assertTrue(thread.getName().startsWith("jarvis-client-"), thread.getName());
    }
  }

  @Test
  void anExecutorGivenInTheOptionsRunsTheCallsAndOutlivesTheClient() {
    ExecutorService given =
        Executors.newFixedThreadPool(2, task -> new Thread(task, "given-executor"));
    try {
      start(b -> b.executor(given).addPerCallPolicy(whereItRuns));

      host.client.executeAsync(JarvisCall.getWorkSession(ClientFixture.SESSION)).join();
      host.client.close();

      assertEquals(2, threads.size());
      threads.forEach(t -> assertEquals("given-executor", t.getName()));
      assertFalse(given.isShutdown());
    } finally {
      given.shutdownNow();
    }
  }

  @Test
  void aClosedClientRefusesNewCalls() {
    start(b -> b);

    host.client.close();

    assertThrows(
        IllegalStateException.class,
        () -> host.client.executeAsync(ClientFixture.recordDecision()));
    assertThrows(
        IllegalStateException.class, () -> host.client.execute(ClientFixture.recordDecision()));
  }

  @Test
  void anAsyncRetryWaitsOnTheSleepersTimerAndHoldsNoThreadAsleep() {
    List<Duration> waits = Collections.synchronizedList(new ArrayList<>());
    Sleeper timerOnly =
        timerOnly(
            (duration, executor) -> {
              waits.add(duration);
              return CompletableFuture.runAsync(() -> {}, executor);
            });
    start(b -> b.sleeper(timerOnly));
    host.firstAnswerThenDecision(PATH, aResponse().withStatus(503));

    JarvisResponse<PolicyDecision> response =
        host.client.executeAsync(ClientFixture.recordDecision()).join();

    assertEquals(2, response.attempts());
    assertEquals(List.of(Duration.ofMillis(200)), waits);
  }

  @Test
  void cancellingTheFutureCancelsTheAttemptInFlight() throws InterruptedException {
    CountDownLatch sent = new CountDownLatch(1);
    AtomicReference<CompletableFuture<PipelineResponse>> inFlight = new AtomicReference<>();
    start(
        b ->
            b.addPerAttemptPolicy(
                JarvisPolicy.named(
                    "hold-attempt",
                    (request, next) -> {
                      CompletableFuture<PipelineResponse> attempt = next.send(request);
                      inFlight.set(attempt);
                      sent.countDown();
                      return attempt;
                    })));
    host.wireMock.stubFor(
        get(urlPathEqualTo("/work-sessions/slow"))
            .willReturn(ClientFixture.protocolResponse(200, "{}").withFixedDelay(30_000)));

    CompletableFuture<?> call = host.client.executeAsync(JarvisCall.getWorkSession("slow"));
    assertTrue(sent.await(10, TimeUnit.SECONDS));
    assertTrue(call.cancel(true));

    // The JDK may end the exchange on its own thread: wait for that, well short of the 30 s delay
    // the host would take to answer.
    CompletableFuture<PipelineResponse> attempt = inFlight.get();
    Throwable ended = assertThrows(Exception.class, () -> attempt.get(10, TimeUnit.SECONDS));
    assertTrue(
        ended instanceof ExecutionException || ended instanceof CancellationException,
        "the attempt in flight was cancelled, not left running: " + ended);
  }

  @Test
  void cancellingTheFutureDuringTheBackOffCancelsTheRetries() throws InterruptedException {
    CompletableFuture<Void> backOff = new CompletableFuture<>();
    CountDownLatch waiting = new CountDownLatch(1);
    Sleeper held =
        timerOnly(
            (duration, executor) -> {
              waiting.countDown();
              return backOff;
            });
    start(b -> b.sleeper(held));
    host.wireMock.stubFor(post(urlPathEqualTo(PATH)).willReturn(aResponse().withStatus(503)));

    CompletableFuture<?> call = host.client.executeAsync(ClientFixture.recordDecision());
    assertTrue(waiting.await(10, TimeUnit.SECONDS));
    call.cancel(true);

    // The wait is registered for cancelling just after the sleeper hands it over: wait for that.
    assertThrows(CancellationException.class, () -> backOff.get(10, TimeUnit.SECONDS));
    assertEquals(1, host.wireMock.findAll(postRequestedFor(urlPathEqualTo(PATH))).size());
  }
}
