package dev.jarvis.client.internal;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** What really failed, under the wrappers a chain of futures adds. */
public final class FailureCause {

  private FailureCause() {}

  public static Throwable of(Throwable failure) {
    Throwable t = failure;
    while ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  /** {@code failure} as something a future's stage may throw, keeping its type where it can. */
  public static RuntimeException rethrowable(Throwable failure) {
    Throwable cause = of(failure);
    if (cause instanceof RuntimeException runtime) {
      return runtime;
    }
    if (cause instanceof Error error) {
      throw error;
    }
    return new CompletionException(cause);
  }
}
