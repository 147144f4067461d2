package dev.jarvis.conformance;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.jarvis.client.raw.RawExchange;
import dev.jarvis.client.raw.RawRequest;
import dev.jarvis.client.raw.RawTransport;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.eventlog.EventStream;
import dev.jarvis.core.headers.JarvisHeaders;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The suite's exchanges with the host under test, over the {@link RawTransport}: each request goes
 * out with exactly the protocol headers and body a check gives it, deliberately wrong ones
 * included, plus the credential of the Actor it names and the JSON media types; every exchange is
 * kept for the suite-wide checks and the recording (with the protocol headers only, never the
 * credential).
 */
final class SuiteExchanges {

  private final RawTransport transport;
  private final HttpClient streams;
  private final URI baseUrl;
  private final Function<Optional<String>, String> tokens;
  private final List<Exchange> exchanges = new ArrayList<>();

  /**
   * @param tokens the bearer token for a request naming this {@code Jarvis-Actor-Id} (or none)
   */
  SuiteExchanges(URI baseUrl, Function<Optional<String>, String> tokens, Duration timeout) {
    this.baseUrl = baseUrl;
    this.tokens = tokens;
    this.transport = RawTransport.builder().connectTimeout(timeout).requestTimeout(timeout).build();
    this.streams =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(timeout)
            .build();
  }

  /**
   * Opens the {@code event-stream} read of a WorkSession: {@code GET
   * /work-sessions/{id}/events?query} with {@code Accept: text/event-stream} and exactly these
   * protocol headers (plus {@code Authorization}). The answer is read as it comes, with no timeout
   * of its own (the check bounds its waits); it is not kept with the run's exchanges.
   */
  EventStreamConnection openStream(String session, String query, Map<String, String> headers) {
    Map<String, String> sent = new LinkedHashMap<>();
    sent.put("Accept", EventStream.MEDIA_TYPE);
    String token = tokens.apply(Optional.ofNullable(headers.get(JarvisHeaders.ACTOR_ID)));
    if (!token.isEmpty()) {
      sent.put("Authorization", "Bearer " + token);
    }
    sent.putAll(headers);
    RawRequest request =
        RawRequest.of(baseUrl, EventLog.OPERATION, Optional.of(session), query, sent, new byte[0]);
    HttpRequest.Builder http = HttpRequest.newBuilder(request.uri()).GET();
    request.headers().forEach(http::header);
    return EventStreamConnection.open(streams, http.build());
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
    Map<String, String> sent = new LinkedHashMap<>();
    sent.put("Accept", "application/json");
    String token = tokens.apply(Optional.ofNullable(headers.get(JarvisHeaders.ACTOR_ID)));
    if (!token.isEmpty()) {
      sent.put("Authorization", "Bearer " + token);
    }
    sent.putAll(headers);
    if (!body.isMissingNode()) {
      sent.put("Content-Type", "application/json");
    }
    RawRequest request =
        RawRequest.of(
            baseUrl,
            ExchangeRules.operation(operationId),
            Optional.ofNullable(pathId),
            query,
            sent,
            body.isMissingNode() ? new byte[0] : bytes(body));
    try {
      RawExchange answer = transport.send(request);
      Map<String, List<String>> protocolHeaders = new LinkedHashMap<>();
      headers.forEach((k, v) -> protocolHeaders.put(k, List.of(v)));
      Exchange exchange =
          new Exchange(
              operationId, protocolHeaders, body, answer.status(), answer.headers(), answer.body());
      synchronized (exchanges) {
        exchanges.add(exchange);
      }
      return exchange;
    } catch (ConnectException | HttpConnectTimeoutException e) {
      if (exchanges().isEmpty()) {
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
