package dev.jarvis.testkit;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import dev.jarvis.core.headers.JarvisHeaders;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;

/** The stub host with one deliberate protocol defect, for proving the conformance suite fails. */
public final class BrokenHost implements AutoCloseable {

  /** The defect. */
  public enum Defect {
    /** Answers without {@code Jarvis-Protocol-Version}. */
    NO_PROTOCOL_VERSION_HEADER,
    /** Accepts mutations that carry no idempotency key. */
    ACCEPTS_MISSING_IDEMPOTENCY_KEY,
    /** Ignores the client's cursor: stale revisions and wrong previous hashes are accepted. */
    IGNORES_THE_CURSOR,
    /** Refuses with {@code unknown_state} whatever the reason. */
    WRONG_ERROR_IDS
  }

  private final StubHost host;
  private final Defect defect;
  private final WireMockServer server;

  public BrokenHost(Defect defect, Clock clock, Supplier<String> ids) {
    this.host = new StubHost(clock, ids, List.of("cursor-headers"));
    this.defect = defect;
    this.server =
        new WireMockServer(
            WireMockConfiguration.options()
                .dynamicPort()
                .bindAddress("127.0.0.1")
                .disableRequestJournal()
                .extensions(new StubHostTransformer(this::handle)));
    server.start();
    server.stubFor(any(anyUrl()).willReturn(aResponse()));
  }

  public String baseUrl() {
    return "http://127.0.0.1:" + server.port();
  }

  private StubResponse handle(StubRequest request) {
    StubResponse answer = host.handle(broken(request));
    return switch (defect) {
      case NO_PROTOCOL_VERSION_HEADER -> without(answer, JarvisHeaders.PROTOCOL_VERSION);
      case WRONG_ERROR_IDS -> answer.status() == 400 ? relabelled(answer) : answer;
      default -> answer;
    };
  }

  private StubRequest broken(StubRequest request) {
    Map<String, List<String>> headers = new LinkedHashMap<>(request.headers());
    if (defect == Defect.ACCEPTS_MISSING_IDEMPOTENCY_KEY
        && request.header(JarvisHeaders.REQUEST_TIMESTAMP).isPresent()
        && request.header(JarvisHeaders.IDEMPOTENCY_KEY).isEmpty()) {
      headers.put(JarvisHeaders.IDEMPOTENCY_KEY, List.of(UUID.randomUUID().toString()));
    }
    if (defect == Defect.IGNORES_THE_CURSOR && request.path().matches("/work-sessions/[^/]+/.+")) {
      String session = request.path().split("/")[2];
      Optional<ObjectNode> record = host.workSession(session);
      if (record.isPresent()
          && request.header(JarvisHeaders.EXPECTED_WORK_SESSION_REVISION).isPresent()) {
        headers
            .keySet()
            .removeIf(
                k ->
                    k.equalsIgnoreCase(JarvisHeaders.EXPECTED_WORK_SESSION_REVISION)
                        || k.equalsIgnoreCase(JarvisHeaders.PREVIOUS_EVENT_HASH));
        headers.put(
            JarvisHeaders.EXPECTED_WORK_SESSION_REVISION,
            List.of(record.get().path("revision").asText()));
        headers.put(
            JarvisHeaders.PREVIOUS_EVENT_HASH,
            List.of(record.get().path("last_event_hash").asText()));
      }
    }
    return new StubRequest(request.method(), request.path(), headers, request.body());
  }

  private static StubResponse without(StubResponse answer, String header) {
    Map<String, String> headers = new LinkedHashMap<>(answer.headers());
    headers.remove(header);
    return new StubResponse(
        answer.status(), headers, answer.body(), answer.fault(), answer.delay());
  }

  private static StubResponse relabelled(StubResponse answer) {
    ObjectNode body = (ObjectNode) answer.body().orElseThrow().deepCopy();
    body.put("error_id", "unknown_state");
    return new StubResponse(
        answer.status(), answer.headers(), Optional.of(body), answer.fault(), answer.delay());
  }

  @Override
  public void close() {
    server.stop();
  }
}
