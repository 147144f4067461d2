package dev.jarvis.client.internal;

import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.client.pipeline.PipelineRequest;
import dev.jarvis.client.pipeline.PipelineResponse;
import java.util.concurrent.CompletableFuture;

/**
 * A built-in link that needs the call's {@link CallScope}: how to send and wait (blocking or
 * asynchronous), the call's cancellation, and a way to make a nested call. The pipeline hands the
 * scope to these links directly, so nothing travels beside the request.
 */
public interface ScopedPolicy extends JarvisPolicy {

  CompletableFuture<PipelineResponse> send(PipelineRequest request, Next next, CallScope scope);

  @Override
  default CompletableFuture<PipelineResponse> send(PipelineRequest request, Next next) {
    throw new UnsupportedOperationException(name() + " runs only inside a client's pipeline");
  }
}
