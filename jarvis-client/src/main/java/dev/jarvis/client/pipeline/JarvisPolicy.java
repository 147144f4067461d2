package dev.jarvis.client.pipeline;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * One link of the client's pipeline: it sees a request on its way to the host, hands it to the next
 * link, and sees the answer (or the failure) on its way back. Add your own with {@link
 * dev.jarvis.client.JarvisClientOptions.Builder#addPerCallPolicy} (once per logical call, retries
 * included: the place for metrics, tracing spans, audit) or {@link
 * dev.jarvis.client.JarvisClientOptions.Builder#addPerAttemptPolicy} (once per attempt, just before
 * the request is logged and sent: the place for a per-attempt header or a fault injector). What the
 * pipeline knows of the call (cursor, idempotency key, attempt, cancellation) is typed in {@link
 * PipelineRequest#context()}.
 *
 * <p>A policy returns a future so that an asynchronous call never blocks a thread while it waits;
 * in a blocking call every future the built-in links return is already complete. A policy may
 * replace headers, but not the idempotency key or WorkSession cursor the pipeline set, nor, from
 * the {@code retry} link down, the URI, body or attempt number, so that every attempt of one call
 * sends the same bytes under one key: the pipeline enforces it ({@link PipelineRequest}). It must
 * not block in an asynchronous call (it runs on the client's executor) and must never log
 * credentials or bodies.
 */
@FunctionalInterface
public interface JarvisPolicy {

  /**
   * Sends the request on through {@code next} exactly once and returns the answer, changed or not;
   * or fails without sending it on. A failure may be returned as a failed future or thrown. The
   * pipeline fails the call with {@link PipelineContractException} if a policy passes the request
   * on twice or answers without passing it on.
   */
  CompletableFuture<PipelineResponse> send(PipelineRequest request, Next next);

  /**
   * The name {@link JarvisPipeline} shows; a lambda should be wrapped with {@link #named}. A
   * built-in link's name ({@code retry}, {@code logging}, ...) is the built-in's alone: the options
   * refuse a policy of yours that takes one.
   */
  default String name() {
    return getClass().getSimpleName();
  }

  /** The rest of the pipeline below a policy. */
  @FunctionalInterface
  interface Next {
    CompletableFuture<PipelineResponse> send(PipelineRequest request);
  }

  /** A policy with a readable name, e.g. {@code named("trace-header", (r, next) -> ...)}. */
  static JarvisPolicy named(String name, JarvisPolicy policy) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(policy, "policy");
    return new JarvisPolicy() {
      @Override
      public CompletableFuture<PipelineResponse> send(PipelineRequest request, Next next) {
        return policy.send(request, next);
      }

      @Override
      public String name() {
        return name;
      }

      @Override
      public String toString() {
        return name;
      }
    };
  }
}
