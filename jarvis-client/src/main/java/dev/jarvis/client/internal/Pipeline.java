package dev.jarvis.client.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.JarvisCall;
import dev.jarvis.client.generated.invoker.ApiClient;
import dev.jarvis.client.pipeline.JarvisPipeline;
import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.client.pipeline.PipelineRequest;
import dev.jarvis.client.pipeline.PipelineResponse;
import dev.jarvis.core.JarvisJson;
import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Runs calls through the client's links: builds the request from the spec's operation (method, path
 * template) and the call's body, then hands it to the first link; each link hands it to the next,
 * and the answer returns the same way. The last link is the transport.
 */
public final class Pipeline {

  private final String baseUri;
  private final JarvisPipeline links;
  private final List<JarvisPolicy> chain;

  public Pipeline(URI baseUri, JarvisPipeline links) {
    this.baseUri = baseUri.toString().replaceAll("/+$", "");
    this.links = links;
    this.chain = links.links();
  }

  /** The links, as {@code client.pipeline()} shows them. */
  public JarvisPipeline links() {
    return links;
  }

  /** Sends {@code call} as {@code actorId}; the future fails with whatever a link failed with. */
  public CompletableFuture<PipelineResponse> send(
      JarvisCall<?> call, String actorId, CallScope scope) {
    PipelineRequest request;
    try {
      request = request(call, actorId);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    return new Link(0, scope).send(request);
  }

  private PipelineRequest request(JarvisCall<?> call, String actorId) {
    String path = call.operation().path();
    int open = path.indexOf('{');
    if (open >= 0) {
      // Each operation has at most one path parameter; encoded as the generated API encodes it.
      String value =
          call.pathParameter()
              .orElseThrow(() -> new IllegalArgumentException(call + " has no path parameter"));
      path =
          path.substring(0, open)
              + ApiClient.urlEncode(value)
              + path.substring(path.indexOf('}', open) + 1);
    }
    Optional<JsonNode> body = call.body().map(JarvisJson.mapper()::valueToTree);
    String query = call.query().map(q -> "?" + q).orElse("");
    return PipelineRequest.of(call, actorId, URI.create(baseUri + path + query), body);
  }

  /** The rest of the chain from one link down, for one call. */
  private final class Link implements JarvisPolicy.Next {
    private final int index;
    private final CallScope scope;

    Link(int index, CallScope scope) {
      this.index = index;
      this.scope = scope;
    }

    @Override
    public CompletableFuture<PipelineResponse> send(PipelineRequest request) {
      if (index == chain.size()) {
        throw new IllegalStateException("the transport is the last link: nothing follows it");
      }
      JarvisPolicy policy = chain.get(index);
      Link next = new Link(index + 1, scope);
      try {
        CompletableFuture<PipelineResponse> answer =
            policy instanceof ScopedPolicy scoped
                ? scoped.send(request, next, scope)
                : policy.send(request, next);
        return Objects.requireNonNull(answer, () -> policy.name() + " returned no future");
      } catch (RuntimeException e) {
        return CompletableFuture.failedFuture(e);
      }
    }
  }
}
