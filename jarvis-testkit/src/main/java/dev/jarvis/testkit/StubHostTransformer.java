package dev.jarvis.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.extension.ResponseDefinitionTransformerV2;
import com.github.tomakehurst.wiremock.http.HttpHeader;
import com.github.tomakehurst.wiremock.http.Request;
import com.github.tomakehurst.wiremock.http.ResponseDefinition;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.host.StoredResponse;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The WireMock side of the stub host: a global response transformer that hands every request to
 * {@link StubHost} and turns its answer into a WireMock response definition (status, headers, body,
 * fault, delay).
 */
final class StubHostTransformer implements ResponseDefinitionTransformerV2 {

  static final String NAME = "jarvis-stub-host";

  private final Function<StubRequest, StubResponse> handler;
  private final Function<StubRequest, Optional<StoredResponse>> held;

  StubHostTransformer(StubHost host) {
    this(host::handle, host::held);
  }

  /** A transformer answering with any handler, e.g. a stub host with a deliberate defect. */
  StubHostTransformer(Function<StubRequest, StubResponse> handler) {
    this(handler, request -> Optional.empty());
  }

  private StubHostTransformer(
      Function<StubRequest, StubResponse> handler,
      Function<StubRequest, Optional<StoredResponse>> held) {
    this.handler = handler;
    this.held = held;
  }

  @Override
  public String getName() {
    return NAME;
  }

  @Override
  public boolean applyGlobally() {
    return true;
  }

  @Override
  public ResponseDefinition transform(ServeEvent serveEvent) {
    Request request = serveEvent.getRequest();
    Map<String, List<String>> headers = new LinkedHashMap<>();
    for (HttpHeader header : request.getHeaders().all()) {
      headers.put(header.key(), List.copyOf(header.values()));
    }
    URI uri = URI.create(request.getUrl());
    String query = uri.getRawQuery() == null ? "" : uri.getRawQuery();
    StubRequest stubRequest =
        new StubRequest(
            request.getMethod().getName(),
            uri.getRawPath(),
            headers,
            nullToEmpty(request.getBody()),
            query);
    Optional<StoredResponse> waited = held.apply(stubRequest);
    if (waited.isPresent()) {
      // A stream's batch or a long poll's page, sent as the host kit wrote it.
      ResponseDefinitionBuilder builder =
          ResponseDefinitionBuilder.responseDefinition().withStatus(waited.get().status());
      waited.get().headers().forEach(builder::withHeader);
      return builder.withBody(waited.get().body()).build();
    }
    return toDefinition(handler.apply(stubRequest));
  }

  private static ResponseDefinition toDefinition(StubResponse answer) {
    ResponseDefinitionBuilder builder = ResponseDefinitionBuilder.responseDefinition();
    if (answer.fault().isPresent()) {
      builder.withFault(
          com.github.tomakehurst.wiremock.http.Fault.valueOf(answer.fault().get().name()));
    } else {
      builder.withStatus(answer.status());
      answer.headers().forEach(builder::withHeader);
      if (answer.body().isPresent()) {
        try {
          builder.withBody(JarvisJson.mapper().writeValueAsBytes(answer.body().get()));
        } catch (JsonProcessingException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    if (!answer.delay().isZero()) {
      builder.withFixedDelay(Math.toIntExact(answer.delay().toMillis()));
    }
    return builder.build();
  }

  private static byte[] nullToEmpty(byte[] body) {
    return body == null ? new byte[0] : body;
  }
}
