package dev.jarvis.client.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * Continuing a stage that has already succeeded — every stage of a blocking call — at once, on this
 * thread, instead of through a dependent stage: a blocking call's links then add no stage objects
 * and no completion walk (about twenty per call). A stage still running (an asynchronous call) or
 * failed is continued as {@link CompletableFuture} would. A function that throws gives a failed
 * future, as the dependent stage would; the exception comes unwrapped where the dependent stage
 * would have wrapped it in a {@link java.util.concurrent.CompletionException}, and every link reads
 * failures through {@link FailureCause}, which takes either.
 */
final class ReadyStages {

  private ReadyStages() {}

  /** Whether the stage has completed normally: its value can be taken without waiting. */
  static boolean succeeded(CompletableFuture<?> stage) {
    return stage.isDone() && !stage.isCompletedExceptionally();
  }

  static <T, R> CompletableFuture<R> thenApply(
      CompletableFuture<T> stage, Function<? super T, ? extends R> then) {
    if (!succeeded(stage)) {
      return stage.thenApply(then);
    }
    try {
      return CompletableFuture.completedFuture(then.apply(stage.join()));
    } catch (Throwable e) { // as CompletableFuture does: the stage fails with whatever was thrown
      return CompletableFuture.failedFuture(e);
    }
  }

  static <T, R> CompletableFuture<R> thenCompose(
      CompletableFuture<T> stage, Function<? super T, ? extends CompletionStage<R>> then) {
    if (!succeeded(stage)) {
      return stage.thenCompose(then);
    }
    try {
      return then.apply(stage.join()).toCompletableFuture();
    } catch (Throwable e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  static <T, R> CompletableFuture<R> handle(
      CompletableFuture<T> stage, BiFunction<? super T, Throwable, ? extends R> then) {
    if (!succeeded(stage)) {
      return stage.handle(then);
    }
    try {
      return CompletableFuture.completedFuture(then.apply(stage.join(), null));
    } catch (Throwable e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  static <T> CompletableFuture<T> whenComplete(
      CompletableFuture<T> stage, BiConsumer<? super T, ? super Throwable> then) {
    if (!succeeded(stage)) {
      return stage.whenComplete(then);
    }
    try {
      then.accept(stage.join(), null);
      return stage;
    } catch (Throwable e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}
