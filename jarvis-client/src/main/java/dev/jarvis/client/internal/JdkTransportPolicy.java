package dev.jarvis.client.internal;

import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.client.pipeline.PipelineRequest;
import dev.jarvis.client.pipeline.PipelineResponse;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * The last link: one HTTP exchange over {@code java.net.http}, with the per-attempt timeout. It
 * answers with the status, headers and bytes as received, whatever the status; a connection that
 * fails or times out fails the future with the {@link java.io.IOException}.
 */
public final class JdkTransportPolicy implements JarvisPolicy {

  private final HttpClient http;
  private final Duration attemptTimeout;

  public JdkTransportPolicy(HttpClient http, Duration attemptTimeout) {
    this.http = http;
    this.attemptTimeout = attemptTimeout;
  }

  @Override
  public String name() {
    return "transport";
  }

  @Override
  public CompletableFuture<PipelineResponse> send(PipelineRequest request, Next next) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(request.uri()).timeout(attemptTimeout);
    request.headers().forEach(builder::header);
    builder.method(
        request.method(),
        request
            .encodedBody()
            .map(HttpRequest.BodyPublishers::ofByteArray)
            .orElseGet(HttpRequest.BodyPublishers::noBody));
    return ReadyStages.thenApply(
        CallExchange.of(request).scope().send(http, builder.build()),
        response ->
            PipelineResponse.of(
                request, response.statusCode(), response.headers(), response.body()));
  }
}
