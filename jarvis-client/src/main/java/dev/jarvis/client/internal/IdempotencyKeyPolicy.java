package dev.jarvis.client.internal;

import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.client.pipeline.PipelineRequest;
import dev.jarvis.client.pipeline.PipelineResponse;
import dev.jarvis.core.headers.JarvisHeaders;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Per call: one {@code Jarvis-Idempotency-Key} for a mutation, taken before the retries so that
 * every attempt carries it and a host that did act on a lost attempt answers with its first
 * response.
 */
public final class IdempotencyKeyPolicy implements JarvisPolicy {

  private final Supplier<String> keys;

  public IdempotencyKeyPolicy(Supplier<String> keys) {
    this.keys = keys;
  }

  @Override
  public String name() {
    return "idempotency-key";
  }

  @Override
  public CompletableFuture<PipelineResponse> send(PipelineRequest request, Next next) {
    if (!request.operation().operationClass().isMutation()) {
      return next.send(request);
    }
    // A key the caller pinned (re-running a call that gave up) wins over a fresh one.
    String key = request.call().idempotencyKey().orElseGet(keys);
    if (key == null || key.isEmpty()) {
      throw new IllegalStateException("the idempotency key supplier returned an empty key");
    }
    CallExchange.of(request).idempotencyKey(key);
    return next.send(request.withHeader(JarvisHeaders.IDEMPOTENCY_KEY, key));
  }
}
