package dev.jarvis.client.internal;

import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.client.pipeline.PipelineRequest;
import dev.jarvis.client.pipeline.PipelineResponse;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * Per attempt: sets {@code Authorization} (HostAuth). The credential is asked for per attempt, so a
 * refreshed token is used by the retry that follows an expiry.
 */
public final class HostAuthPolicy implements JarvisPolicy {

  private static final String AUTHORIZATION = "Authorization";

  private final Supplier<Optional<String>> credentials;

  public HostAuthPolicy(Supplier<Optional<String>> credentials) {
    this.credentials = credentials;
  }

  @Override
  public String name() {
    return "host-auth";
  }

  @Override
  public CompletableFuture<PipelineResponse> send(PipelineRequest request, Next next) {
    PipelineRequest authorized = request.withoutHeader(AUTHORIZATION);
    Optional<String> credential = credentials.get();
    if (credential.isPresent()) {
      authorized = authorized.withHeader(AUTHORIZATION, credential.get());
    }
    return next.send(authorized);
  }
}
