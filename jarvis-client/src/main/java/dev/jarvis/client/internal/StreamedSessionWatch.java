package dev.jarvis.client.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.eventlog.EventPage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Flow;
import java.util.function.Function;

/**
 * Watches a WorkSession live, on a host with the {@code event-stream} capability: while the await
 * waits, a subscription ({@link EventSubscription}: the stream, or long polls where no stream gets
 * through) wakes it the moment an event is committed, instead of the next poll.
 *
 * <p>"Up to now" ({@link #next} with {@link Duration#ZERO}) is a page read, as {@link
 * PolledEventLog} makes it: a stream says nothing about where the chain ends, and the await must
 * not take a Request read ahead of the stream for a resolution the chain does not record. Events
 * from both sources are checked against this watch's own verified cursor ({@link VerifiedChain});
 * one it has already passed (read by page before the stream delivered it) is dropped.
 */
public final class StreamedSessionWatch implements SessionWatch {

  private final Function<ChainCursor, Flow.Publisher<JsonNode>> follow;
  private final Function<EventLog.PageRequest, CompletableFuture<EventPage>> pages;
  private final Function<Duration, CompletableFuture<Void>> waits;
  private final VerifiedChain chain;

  private final Queue<JsonNode> arrived = new ConcurrentLinkedQueue<>();
  private volatile Optional<Throwable> failed = Optional.empty();
  private volatile CompletableFuture<Void> wake = new CompletableFuture<>();
  private volatile Optional<Flow.Subscription> subscription = Optional.empty();
  private volatile boolean closed;

  /**
   * @param follow subscribes to the WorkSession's events after a verified cursor
   * @param pages the client's {@code event-log} read of this WorkSession
   * @param waits the client's wait ({@code Sleeper.delay} on its executor)
   */
  public StreamedSessionWatch(
      String workSessionId,
      Function<ChainCursor, Flow.Publisher<JsonNode>> follow,
      Function<EventLog.PageRequest, CompletableFuture<EventPage>> pages,
      Function<Duration, CompletableFuture<Void>> waits) {
    this.follow = follow;
    this.pages = pages;
    this.waits = waits;
    this.chain = new VerifiedChain(workSessionId, ChainCursor.GENESIS);
  }

  @Override
  public CompletableFuture<List<JsonNode>> next(Duration atMost) {
    try {
      List<JsonNode> fresh = drain();
      if (!fresh.isEmpty()) {
        return CompletableFuture.completedFuture(fresh);
      }
      Optional<Throwable> failure = takeFailure();
      if (failure.isPresent()) {
        return CompletableFuture.failedFuture(failure.get());
      }
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    if (atMost.isZero() || atMost.isNegative()) {
      return pages
          .apply(new EventLog.PageRequest(chain.sequence(), EventSubscription.PAGE))
          .thenApply(page -> verified(page.events(), "/events/"));
    }
    subscribe();
    CompletableFuture<Void> woken = wake;
    if (!arrived.isEmpty() || failed.isPresent()) {
      woken.complete(null);
    }
    CompletableFuture<Void> timer = waits.apply(atMost);
    return CompletableFuture.anyOf(woken, timer)
        .thenCompose(
            either -> {
              timer.cancel(false);
              if (woken.isDone()) {
                wake = new CompletableFuture<>();
              }
              List<JsonNode> fresh = drain();
              if (!fresh.isEmpty()) {
                return CompletableFuture.completedFuture(fresh);
              }
              Optional<Throwable> failure = takeFailure();
              return failure.isPresent()
                  ? CompletableFuture.failedFuture(failure.get())
                  : CompletableFuture.completedFuture(List.of());
            });
  }

  @Override
  public boolean seesEvents() {
    return true;
  }

  /** Stops the subscription: the await is over. */
  @Override
  public void close() {
    closed = true;
    subscription.ifPresent(Flow.Subscription::cancel);
  }

  /**
   * Starts following from the verified end of the chain, unless a subscription is running. One that
   * failed (a host unreachable: the await waits that out) is replaced on the next wait.
   */
  private void subscribe() {
    if (subscription.isPresent() || closed) {
      return;
    }
    arrived.clear();
    follow.apply(chain.cursor()).subscribe(new Listener());
  }

  private Optional<Throwable> takeFailure() {
    Optional<Throwable> failure = failed;
    if (failure.isPresent()) {
      failed = Optional.empty();
      subscription = Optional.empty();
    }
    return failure;
  }

  private List<JsonNode> drain() {
    List<JsonNode> events = new ArrayList<>();
    for (JsonNode event = arrived.poll(); event != null; event = arrived.poll()) {
      events.add(event);
    }
    return verified(events, "/data");
  }

  /** The events past the verified end, each checked as its next link. */
  private List<JsonNode> verified(List<JsonNode> events, String where) {
    List<JsonNode> fresh = new ArrayList<>();
    for (int i = 0; i < events.size(); i++) {
      JsonNode event = events.get(i);
      if (event.path("sequence").asLong() <= chain.sequence()) {
        continue; // read already, by page
      }
      chain.advance(event, where.endsWith("/") ? where + i : where);
      fresh.add(event);
    }
    return fresh;
  }

  /** Takes the subscription's events as they come; every arrival wakes a waiting {@link #next}. */
  private final class Listener implements Flow.Subscriber<JsonNode> {

    @Override
    public void onSubscribe(Flow.Subscription s) {
      subscription = Optional.of(s);
      if (closed) {
        s.cancel();
        return;
      }
      s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(JsonNode event) {
      arrived.add(event);
      wake.complete(null);
    }

    @Override
    public void onError(Throwable failure) {
      failed = Optional.of(failure);
      wake.complete(null);
    }

    @Override
    public void onComplete() {
      wake.complete(null);
    }
  }
}
