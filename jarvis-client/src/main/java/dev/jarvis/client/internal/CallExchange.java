package dev.jarvis.client.internal;

import dev.jarvis.client.JarvisCall;
import dev.jarvis.client.pipeline.CallContext;
import dev.jarvis.client.pipeline.PipelineContractException;
import dev.jarvis.client.pipeline.PipelineRequest;
import dev.jarvis.core.chain.ChainCursor;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One exchange of a call through the pipeline, typed: the call and its Actor, the WorkSession
 * cursor the pipeline chose, the idempotency key the key link took, the request the retry link
 * fixed for every attempt, the attempts started, and the first contract violation a link made. The
 * call's {@link CallScope} (blocking or asynchronous, cancellation) is shared with the WorkSession
 * re-read the pipeline may run for it.
 *
 * <p>Written by one step of the call at a time (the steps of a future chain are ordered), read by
 * the next: the fields are volatile only because an asynchronous call hops between threads.
 */
public final class CallExchange implements CallContext {

  private final CallScope scope;
  private final JarvisCall<?> call;
  private final String actorId;
  private final Optional<LiveRead> live;
  private volatile Optional<ChainCursor> cursor = Optional.empty();
  private volatile Optional<String> idempotencyKey = Optional.empty();
  private volatile PipelineRequest fixed;
  private volatile int attempt;
  private volatile PipelineContractException broken;

  CallExchange(CallScope scope, JarvisCall<?> call, String actorId) {
    this(scope, call, actorId, Optional.empty());
  }

  CallExchange(CallScope scope, JarvisCall<?> call, String actorId, Optional<LiveRead> live) {
    this.scope = scope;
    this.call = call;
    this.actorId = actorId;
    this.live = live;
  }

  /** What makes this exchange an {@code event-stream} read; empty for every other call. */
  Optional<LiveRead> live() {
    return live;
  }

  /** The exchange of a request the pipeline has handed a built-in link (it checked the context). */
  static CallExchange of(PipelineRequest request) {
    return (CallExchange) request.context();
  }

  @Override
  public JarvisCall<?> call() {
    return call;
  }

  @Override
  public String actorId() {
    return actorId;
  }

  @Override
  public Optional<ChainCursor> cursor() {
    return cursor;
  }

  @Override
  public Optional<String> idempotencyKey() {
    return idempotencyKey;
  }

  @Override
  public int attempt() {
    return attempt;
  }

  @Override
  public boolean isCancelled() {
    return scope.isCancelled();
  }

  @Override
  public CompletableFuture<Void> delay(Duration wait) {
    return scope.delay(wait);
  }

  @Override
  public <T> CompletableFuture<T> resume(CompletionStage<T> stage) {
    return scope.resume(stage);
  }

  CallScope scope() {
    return scope;
  }

  void cursor(ChainCursor chosen) {
    cursor = Optional.of(chosen);
  }

  void idempotencyKey(String key) {
    idempotencyKey = Optional.of(key);
  }

  /** The request every attempt sends (bar the per-attempt headers), once the retry link has it. */
  Optional<PipelineRequest> fixed() {
    return Optional.ofNullable(fixed);
  }

  void fix(PipelineRequest request) {
    fixed = request;
  }

  int startAttempt() {
    return ++attempt;
  }

  /** The first violation a link made; the call fails with it whatever the link did next. */
  Optional<PipelineContractException> broken() {
    return Optional.ofNullable(broken);
  }

  PipelineContractException broke(PipelineContractException violation) {
    if (broken == null) {
      broken = violation;
    }
    return violation;
  }
}
