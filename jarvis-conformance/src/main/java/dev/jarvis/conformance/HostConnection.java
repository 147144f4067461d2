package dev.jarvis.conformance;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.headers.JarvisHeaders;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Raw HTTP to the host under test, over {@code java.net.http} and HTTP/1.1: it sends exactly the
 * headers and body it is given, including deliberately wrong ones, and keeps every exchange for the
 * suite-wide checks.
 */
final class HostConnection {

  private final HttpClient http;
  private final URI baseUrl;
  private final java.util.function.Function<java.util.Optional<String>, String> tokens;
  private final Duration timeout;
  private final List<Exchange> exchanges = new ArrayList<>();

  /**
   * @param tokens the bearer token for a request naming this {@code Jarvis-Actor-Id} (or none)
   */
  HostConnection(
      URI baseUrl,
      java.util.function.Function<java.util.Optional<String>, String> tokens,
      Duration timeout) {
    this.baseUrl = baseUrl;
    this.tokens = tokens;
    this.timeout = timeout;
    this.http =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(timeout)
            .build();
  }

  /**
   * Sends the operation with exactly these protocol headers (plus {@code Authorization}) and body.
   *
   * @param pathId the value of the operation's one path parameter, or null if it has none
   * @param body the body, or a missing node for none
   */
  Exchange send(String operationId, String pathId, Map<String, String> headers, JsonNode body) {
    return send(operationId, pathId, "", headers, body);
  }

  /**
   * As {@link #send(String, String, Map, JsonNode)}, with a raw query string (without {@code ?};
   * empty for none), which only the {@code event-log} read takes.
   */
  Exchange send(
      String operationId, String pathId, String query, Map<String, String> headers, JsonNode body) {
    ProtocolOperation op = ExchangeRules.operation(operationId);
    String path =
        pathId == null
            ? op.path()
            : op.path()
                .replaceAll(
                    "\\{[a-z_]+}",
                    URLEncoder.encode(pathId, StandardCharsets.UTF_8).replace("+", "%20"));
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(baseUrl + path + (query.isEmpty() ? "" : "?" + query)))
            .timeout(timeout)
            .header("Accept", "application/json");
    String token = tokens.apply(java.util.Optional.ofNullable(headers.get(JarvisHeaders.ACTOR_ID)));
    if (!token.isEmpty()) {
      request.header("Authorization", "Bearer " + token);
    }
    headers.forEach(request::header);
    Map<String, List<String>> sent = new LinkedHashMap<>();
    headers.forEach((k, v) -> sent.put(k, List.of(v)));
    if (body.isMissingNode()) {
      request.method(op.httpMethod(), HttpRequest.BodyPublishers.noBody());
    } else {
      request.header("Content-Type", "application/json");
      request.method(op.httpMethod(), HttpRequest.BodyPublishers.ofByteArray(bytes(body)));
    }
    try {
      HttpResponse<byte[]> response =
          http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      Exchange exchange =
          new Exchange(
              operationId,
              sent,
              body,
              response.statusCode(),
              response.headers().map(),
              response.body());
      synchronized (exchanges) {
        exchanges.add(exchange);
      }
      return exchange;
    } catch (ConnectException | HttpConnectTimeoutException e) {
      if (exchanges.isEmpty()) {
        throw new HostUnreachableException("cannot reach " + baseUrl + ": " + e, e);
      }
      throw new CheckFailure(operationId + ": cannot connect to the host: " + e);
    } catch (IOException e) {
      throw new CheckFailure(operationId + ": transport failure: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CheckFailure(operationId + ": interrupted");
    }
  }

  /** Sends a request without a body. */
  Exchange send(String operationId, String pathId, Map<String, String> headers) {
    return send(operationId, pathId, headers, MissingNode.getInstance());
  }

  /** Every exchange so far, in order. */
  List<Exchange> exchanges() {
    synchronized (exchanges) {
      return List.copyOf(exchanges);
    }
  }

  private static byte[] bytes(JsonNode body) {
    try {
      return JarvisJson.mapper().writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
