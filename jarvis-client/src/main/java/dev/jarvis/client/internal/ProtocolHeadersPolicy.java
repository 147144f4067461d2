package dev.jarvis.client.internal;

import dev.jarvis.client.JarvisCall;
import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.client.pipeline.PipelineRequest;
import dev.jarvis.client.pipeline.PipelineResponse;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.eventlog.EventStream;
import dev.jarvis.core.headers.JarvisHeaders;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Per call: the headers every request of the protocol carries ({@code Jarvis-Protocol-Version},
 * {@code Jarvis-Actor-Id}, content negotiation, {@code User-Agent}) and, on reads, the declared
 * {@code Jarvis-Required-Capabilities} and {@code Jarvis-Extensions}.
 */
public final class ProtocolHeadersPolicy implements JarvisPolicy {

  /** The link's name: the first built-in link, where a WorkSession re-read enters. */
  public static final String NAME = "protocol-headers";

  private final String userAgent;

  public ProtocolHeadersPolicy(String userAgent) {
    this.userAgent = userAgent;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public CompletableFuture<PipelineResponse> send(PipelineRequest request, Next next) {
    JarvisCall<?> call = request.call();
    Map<String, String> headers = new LinkedHashMap<>();
    Optional<LiveRead> live = CallExchange.of(request).live();
    // A stream is asked for as the page read, with its media type first: a host without the
    // capability answers the page (JSON), which the client then reads as one.
    headers.put(
        "Accept",
        live.isPresent()
            ? EventStream.MEDIA_TYPE + ", application/json;q=0.5"
            : "application/json");
    live.flatMap(LiveRead::lastEventId)
        .ifPresent(id -> headers.put(EventStream.LAST_EVENT_ID, Long.toString(id)));
    if (request.body().isPresent()) {
      headers.put("Content-Type", "application/json");
    }
    headers.put("User-Agent", userAgent);
    headers.put(JarvisHeaders.PROTOCOL_VERSION, JarvisSpec.PROTOCOL_VERSION);
    headers.put(JarvisHeaders.ACTOR_ID, request.actorId());
    if (!call.requiredCapabilities().isEmpty()) {
      headers.put(
          JarvisHeaders.REQUIRED_CAPABILITIES, String.join(", ", call.requiredCapabilities()));
    }
    if (!call.extensions().isEmpty()) {
      headers.put(JarvisHeaders.EXTENSIONS, String.join(", ", call.extensions()));
    }
    return next.send(request.withHeaders(headers));
  }
}
