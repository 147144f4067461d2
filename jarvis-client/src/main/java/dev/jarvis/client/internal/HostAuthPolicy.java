package dev.jarvis.client.internal;

import dev.jarvis.client.ActorAuth;
import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.client.pipeline.PipelineRequest;
import dev.jarvis.client.pipeline.PipelineResponse;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Per attempt: sets {@code Authorization} (HostAuth) for the acting Actor. The credential is asked
 * for per attempt, so a refreshed token is used by the retry that follows an expiry, and with the
 * attempt's Actor, so views of one client made with {@code as(id)} each send their own.
 */
public final class HostAuthPolicy implements JarvisPolicy {

  private static final String AUTHORIZATION = "Authorization";

  private final ActorAuth credentials;

  public HostAuthPolicy(ActorAuth credentials) {
    this.credentials = credentials;
  }

  @Override
  public String name() {
    return "host-auth";
  }

  @Override
  public CompletableFuture<PipelineResponse> send(PipelineRequest request, Next next) {
    return ReadyStages.thenCompose(
        request.context().resume(credentials.authorization(request.actorId())),
        credential -> next.send(authorized(request, credential)));
  }

  private static PipelineRequest authorized(PipelineRequest request, Optional<String> credential) {
    // withHeader replaces a value a policy above set: one copy of the headers, not two.
    return credential.isPresent()
        ? request.withHeader(AUTHORIZATION, credential.get())
        : request.withoutHeader(AUTHORIZATION);
  }
}
