package dev.jarvis.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.ProtocolOperations;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.headers.RequestTimestamp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Raw protocol calls to a stub host over java.net.http, with every header under the test's control.
 */
final class StubCalls {

  /** An answer: status, headers and parsed body. */
  record Answer(int status, java.net.http.HttpHeaders headers, JsonNode body) {
    String header(String name) {
      return headers.firstValue(name).orElse(null);
    }

    String errorId() {
      return body.path("error_id").asText();
    }
  }

  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final String baseUrl;
  private final Clock clock;
  private final AtomicInteger keys = new AtomicInteger();

  StubCalls(String baseUrl, Clock clock) {
    this.baseUrl = baseUrl;
    this.clock = clock;
  }

  /** The headers a correct client sends for this operation, with a fresh idempotency key. */
  Map<String, String> headers(String operationId, String actor, ChainCursor cursor) {
    ProtocolOperation op = ProtocolOperations.byId(operationId);
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(JarvisHeaders.PROTOCOL_VERSION, JarvisSpec.PROTOCOL_VERSION);
    headers.put(JarvisHeaders.ACTOR_ID, actor);
    if (op.operationClass().isMutation()) {
      headers.put(JarvisHeaders.IDEMPOTENCY_KEY, "key-" + keys.incrementAndGet());
      headers.put(JarvisHeaders.REQUEST_TIMESTAMP, RequestTimestamp.format(clock.instant()));
    }
    if (op.operationClass().needsCursor()) {
      headers.put(JarvisHeaders.EXPECTED_WORK_SESSION_REVISION, Long.toString(cursor.revision()));
      headers.put(JarvisHeaders.PREVIOUS_EVENT_HASH, cursor.lastEventHash());
    }
    return headers;
  }

  /** Sends a correct call. */
  Answer call(String operationId, String pathId, String actor, ChainCursor cursor, JsonNode body) {
    return send(
        operationId, pathId, headers(operationId, actor, cursor), body, Duration.ofSeconds(10));
  }

  /** Sends the operation with exactly these headers. */
  Answer send(
      String operationId,
      String pathId,
      Map<String, String> headers,
      JsonNode body,
      Duration timeout) {
    try {
      return sendOrThrow(operationId, pathId, headers, body, timeout);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** As {@link #send}, letting transport failures through. */
  Answer sendOrThrow(
      String operationId,
      String pathId,
      Map<String, String> headers,
      JsonNode body,
      Duration timeout)
      throws IOException {
    ProtocolOperation op = ProtocolOperations.byId(operationId);
    String path = op.path().replaceAll("\\{[a-z_]+}", pathId == null ? "" : pathId);
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(baseUrl + path)).timeout(timeout);
    headers.forEach(request::header);
    if (body == null) {
      request.method(op.httpMethod(), HttpRequest.BodyPublishers.noBody());
    } else {
      request.header("Content-Type", "application/json");
      request.method(
          op.httpMethod(),
          HttpRequest.BodyPublishers.ofByteArray(JarvisJson.mapper().writeValueAsBytes(body)));
    }
    try {
      HttpResponse<byte[]> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      JsonNode parsed =
          response.body().length == 0
              ? JarvisJson.mapper().missingNode()
              : JarvisJson.mapper().readTree(response.body());
      return new Answer(response.statusCode(), response.headers(), parsed);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  static ObjectNode copy(JsonNode node) {
    return (ObjectNode) node.deepCopy();
  }
}
