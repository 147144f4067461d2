package dev.jarvis.client.internal;

import dev.jarvis.client.pipeline.PipelineRequest;
import java.util.Objects;

/**
 * How the pipeline numbers a request's attempt. Only the pipeline may: a public {@code withAttempt}
 * would let a link renumber attempts, so {@link PipelineRequest} hands its numbering to this
 * unexported package from its static initializer instead (as the JDK's shared secrets do).
 */
public final class AttemptNumbering {

  /** Copies a request as another attempt. */
  @FunctionalInterface
  public interface Numberer {
    PipelineRequest numbered(PipelineRequest request, int attempt);
  }

  private static volatile Numberer numberer;

  private AttemptNumbering() {}

  /**
   * Called once, by {@link PipelineRequest}'s static initializer.
   *
   * @throws IllegalStateException when called again
   */
  public static synchronized void install(Numberer given) {
    if (numberer != null) {
      throw new IllegalStateException("the attempt numbering is installed");
    }
    numberer = Objects.requireNonNull(given, "numberer");
  }

  /** {@code request} as attempt {@code attempt}. */
  static PipelineRequest numbered(PipelineRequest request, int attempt) {
    // The request exists, so its class (and with it the numberer) is initialized.
    return numberer.numbered(request, attempt);
  }
}
