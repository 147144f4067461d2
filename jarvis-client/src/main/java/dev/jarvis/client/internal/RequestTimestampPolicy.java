package dev.jarvis.client.internal;

import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.client.pipeline.PipelineRequest;
import dev.jarvis.client.pipeline.PipelineResponse;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.headers.RequestTimestamp;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;

/**
 * Per attempt: a fresh {@code Jarvis-Request-Timestamp} on a mutation, from the injected clock, so
 * a retry after a long back-off is not refused as stale. The only header that differs between the
 * attempts of one call.
 */
public final class RequestTimestampPolicy implements JarvisPolicy {

  private final Clock clock;

  public RequestTimestampPolicy(Clock clock) {
    this.clock = clock;
  }

  @Override
  public String name() {
    return "request-timestamp";
  }

  @Override
  public CompletableFuture<PipelineResponse> send(PipelineRequest request, Next next) {
    if (!request.operation().operationClass().isMutation()) {
      return next.send(request);
    }
    return next.send(
        request.withHeader(
            JarvisHeaders.REQUEST_TIMESTAMP, RequestTimestamp.format(clock.instant())));
  }
}
