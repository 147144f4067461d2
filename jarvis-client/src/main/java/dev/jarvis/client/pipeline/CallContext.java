package dev.jarvis.client.pipeline;

import dev.jarvis.client.JarvisCall;
import dev.jarvis.core.chain.ChainCursor;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * What the pipeline knows of the call a request serves, typed, for every link (built-in or yours):
 * the call, the acting Actor, the WorkSession cursor it sends, its idempotency key, the attempt
 * under way, whether the caller cancelled it, and the call's way of waiting. Read it with {@link
 * PipelineRequest#context()}. The pipeline sets it; a link never parses it back out of headers.
 *
 * <p>One context per protocol exchange: the WorkSession re-read the pipeline runs before a first
 * mutation (or after a stale answer) has its own, whose {@link #call()} is {@code getWorkSession}.
 */
public interface CallContext {

  /** The call this exchange serves. */
  JarvisCall<?> call();

  /** The acting Actor ({@code Jarvis-Actor-Id}). */
  String actorId();

  /**
   * The WorkSession cursor (expected revision and previous event hash) this exchange sends: genesis
   * for {@code createWorkSession}, the known or re-read cursor for a scoped mutation; empty for any
   * other operation. Chosen by the pipeline's cursor step, just before the {@code
   * work-session-cursor} link (after validation, so a local refusal costs no re-read): empty in the
   * links above it on the way down.
   */
  Optional<ChainCursor> cursor();

  /**
   * The mutation's {@code Jarvis-Idempotency-Key}, once the {@code idempotency-key} link took it.
   */
  Optional<String> idempotencyKey();

  /** Attempts started so far: 0 in the per-call links before the first, then 1, 2, … */
  int attempt();

  /** Whether the caller cancelled the call (a policy should stop waiting and fail). */
  boolean isCancelled();

  /**
   * Completes after {@code wait}, the call's way: slept on the caller's thread in a blocking call,
   * on a timer in an asynchronous one (no thread held), with the client's {@code Sleeper}.
   */
  CompletableFuture<Void> delay(Duration wait);

  /**
   * Continues after {@code stage} (work of your own, such as fetching a token) the call's way: a
   * blocking call waits for it on the caller's thread; an asynchronous one takes its result over to
   * the client's executor.
   */
  <T> CompletableFuture<T> resume(CompletionStage<T> stage);
}
