package dev.jarvis.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.internal.EventSubscription;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A subscriber that keeps what it is given, asks for what the test says, and notes any {@code
 * onNext} beyond what it asked for. Every wait is bounded generously and ends as soon as the thing
 * waited for happened.
 */
final class Collecting implements Flow.Subscriber<JsonNode> {

  static final long BOUND_SECONDS = 20;

  private final long initialDemand;
  final LinkedBlockingQueue<JsonNode> events = new LinkedBlockingQueue<>();
  final List<JsonNode> all = new CopyOnWriteArrayList<>();
  final CompletableFuture<Flow.Subscription> subscription = new CompletableFuture<>();
  final CompletableFuture<Throwable> error = new CompletableFuture<>();
  final List<String> beyondDemand = new CopyOnWriteArrayList<>();
  private final AtomicLong asked = new AtomicLong();

  Collecting(long initialDemand) {
    this.initialDemand = initialDemand;
  }

  /** Asks for everything. */
  static Collecting unbounded() {
    return new Collecting(Long.MAX_VALUE);
  }

  @Override
  public void onSubscribe(Flow.Subscription s) {
    subscription.complete(s);
    if (initialDemand > 0) {
      request(initialDemand);
    }
  }

  void request(long n) {
    asked.accumulateAndGet(n, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b);
    subscription.join().request(n);
  }

  @Override
  public void onNext(JsonNode event) {
    if (asked.getAndDecrement() <= 0) {
      beyondDemand.add(event.path("sequence").asText());
    }
    all.add(event);
    events.add(event);
  }

  @Override
  public void onError(Throwable failure) {
    error.complete(failure);
  }

  @Override
  public void onComplete() {
    error.completeExceptionally(new AssertionError("an event subscription never completes"));
  }

  /** The sequences of the next {@code n} events, each waited for. */
  List<Long> take(int n) throws InterruptedException {
    List<Long> sequences = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      JsonNode event = events.poll(BOUND_SECONDS, TimeUnit.SECONDS);
      if (event == null) {
        throw new AssertionError("event " + (i + 1) + " of " + n + " never came; had " + sequences);
      }
      sequences.add(event.path("sequence").asLong());
    }
    return sequences;
  }

  Throwable failure() {
    return error.orTimeout(BOUND_SECONDS, TimeUnit.SECONDS).join();
  }

  void cancel() {
    subscription.join().cancel();
  }

  /** Whether the subscription's thread has ended (waiting for it a bounded time). */
  boolean stopped() throws InterruptedException {
    return ((EventSubscription) subscription.join())
        .awaitStopped(Duration.ofSeconds(BOUND_SECONDS));
  }
}
