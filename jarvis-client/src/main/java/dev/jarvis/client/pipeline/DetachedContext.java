package dev.jarvis.client.pipeline;

import dev.jarvis.client.JarvisCall;
import dev.jarvis.core.chain.ChainCursor;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * The context of a request made outside a client's pipeline (a policy's own unit test): no cursor,
 * no key, never cancelled. A client's pipeline refuses such a request: it is not the call's.
 */
record DetachedContext(JarvisCall<?> call, String actorId) implements CallContext {

  @Override
  public Optional<ChainCursor> cursor() {
    return Optional.empty();
  }

  @Override
  public Optional<String> idempotencyKey() {
    return Optional.empty();
  }

  @Override
  public int attempt() {
    return 0;
  }

  @Override
  public boolean isCancelled() {
    return false;
  }

  @Override
  public CompletableFuture<Void> delay(Duration wait) {
    return CompletableFuture.runAsync(
        () -> {}, CompletableFuture.delayedExecutor(wait.toNanos(), TimeUnit.NANOSECONDS));
  }

  @Override
  public <T> CompletableFuture<T> resume(CompletionStage<T> stage) {
    return stage.toCompletableFuture();
  }
}
