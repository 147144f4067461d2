package dev.jarvis.client.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.AwaitPolicy;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * The watch of a host without the {@code event-log} capability: it sees no events, so it only waits
 * (growing from {@link AwaitPolicy#firstPoll()} to {@link AwaitPolicy#maxPoll()}) and the await
 * re-reads the Request after each wait.
 */
public final class RequestRereads implements SessionWatch {

  private final AwaitPolicy policy;
  private final Function<Duration, CompletableFuture<Void>> waits;
  private int quiet;

  /**
   * @param waits the client's wait ({@code Sleeper.delay} on its executor)
   */
  public RequestRereads(AwaitPolicy policy, Function<Duration, CompletableFuture<Void>> waits) {
    this.policy = policy;
    this.waits = waits;
  }

  @Override
  public CompletableFuture<List<JsonNode>> next(Duration atMost) {
    if (atMost.isZero() || atMost.isNegative()) {
      return CompletableFuture.completedFuture(List.of());
    }
    Duration wait = min(policy.poll(++quiet), atMost);
    return waits.apply(wait).thenApply(done -> List.of());
  }

  @Override
  public boolean seesEvents() {
    return false;
  }

  static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
