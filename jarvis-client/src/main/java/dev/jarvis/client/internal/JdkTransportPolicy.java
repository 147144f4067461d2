package dev.jarvis.client.internal;

import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.client.pipeline.PipelineRequest;
import dev.jarvis.client.pipeline.PipelineResponse;
import dev.jarvis.core.eventlog.EventStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
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
    CallExchange exchange = CallExchange.of(request);
    if (exchange.live().isPresent()) {
      return ReadyStages.thenCompose(
          exchange.scope().sendStreaming(http, builder.build()),
          response -> live(request, exchange.live().get(), response));
    }
    return ReadyStages.thenApply(
        exchange.scope().send(http, builder.build()),
        response ->
            PipelineResponse.of(
                request, response.statusCode(), response.headers(), response.body()));
  }

  /**
   * A stream's answer: a {@code 200 text/event-stream} body stays open in {@code live}, answered up
   * the links without a body; any other answer is read to its end and passed up as received.
   */
  private static CompletableFuture<PipelineResponse> live(
      PipelineRequest request, LiveRead live, HttpResponse<InputStream> response) {
    boolean stream =
        response.statusCode() == 200
            && response
                .headers()
                .firstValue("Content-Type")
                .map(type -> type.split(";")[0].trim().equalsIgnoreCase(EventStream.MEDIA_TYPE))
                .orElse(false);
    if (stream) {
      live.open(response.body());
      return CompletableFuture.completedFuture(
          PipelineResponse.of(request, 200, response.headers(), new byte[0]));
    }
    try (InputStream body = response.body()) {
      return CompletableFuture.completedFuture(
          PipelineResponse.of(
              request, response.statusCode(), response.headers(), body.readAllBytes()));
    } catch (IOException e) {
      // A truncated answer, as the byte-array read fails with: retried like it.
      return CompletableFuture.failedFuture(e);
    }
  }
}
