package dev.jarvis.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What the stub host answers: a status, headers and a JSON body, or a transport {@link Fault};
 * optionally after a delay.
 *
 * @param status the HTTP status (0 for a fault that sends no status)
 * @param headers response headers in the order they are sent
 * @param body the JSON body, if any
 * @param fault the fault to inject instead of a response, if any
 * @param delay how long to wait before answering
 */
public record StubResponse(
    int status,
    Map<String, String> headers,
    Optional<JsonNode> body,
    Optional<Fault> fault,
    Duration delay) {

  public StubResponse {
    headers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(fault, "fault");
    Objects.requireNonNull(delay, "delay");
  }

  /** A JSON answer. */
  public static StubResponse json(int status, Map<String, String> headers, JsonNode body) {
    return new StubResponse(status, headers, Optional.of(body), Optional.empty(), Duration.ZERO);
  }

  /** A fault instead of an answer. */
  public static StubResponse fault(Fault fault) {
    if (fault == Fault.SERVICE_UNAVAILABLE) {
      return new StubResponse(
          503, Map.of("Retry-After", "1"), Optional.empty(), Optional.empty(), Duration.ZERO);
    }
    return new StubResponse(0, Map.of(), Optional.empty(), Optional.of(fault), Duration.ZERO);
  }

  /** HTTP 500 naming a defect of the stub itself; deliberately not a protocol answer. */
  static StubResponse defect(String description) {
    com.fasterxml.jackson.databind.node.ObjectNode body =
        com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
    body.put("stub_defect", description);
    return json(500, Map.of("Content-Type", "application/json"), body);
  }

  /** The same answer, sent after {@code delay}. */
  public StubResponse delayedBy(Duration delay) {
    return new StubResponse(status, headers, body, fault, delay);
  }
}
