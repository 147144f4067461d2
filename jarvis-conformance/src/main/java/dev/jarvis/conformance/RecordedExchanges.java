package dev.jarvis.conformance;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.headers.HeaderLookup;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.headers.Parsed;
import dev.jarvis.core.headers.RequestHeaders;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.core.validation.PayloadValidator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Judges a directory of recorded exchanges with no live host. Each {@code *.json} file holds one
 * exchange:
 *
 * <pre>{@code
 * {"operation_id": "recordPolicyDecision",
 *  "request":  {"headers": {"Jarvis-Actor-Id": "actor-1", ...}, "body": {...}},
 *  "response": {"status": 201, "headers": {"Jarvis-Protocol-Version": "v0.1", ...}, "body": {...}}}
 * }</pre>
 *
 * Header values may be a string or a list of strings. One check per file: the answer carries {@code
 * Jarvis-Protocol-Version: v0.1}; a success answer has the operation's status and a body valid
 * against its response schema, and follows a request whose headers and body are valid; a refusal is
 * HTTP 400 with a valid ProtocolError, and a request with header violations is refused with one of
 * their {@code error_id}s; where the host sends cursor headers they match the answer.
 */
final class RecordedExchanges {

  private final CheckRunner runner;

  RecordedExchanges(CheckRunner runner) {
    this.runner = runner;
  }

  void judge(Path directory) {
    List<Path> files;
    try (Stream<Path> listing = Files.list(directory)) {
      files = listing.filter(p -> p.toString().endsWith(".json")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list recorded exchanges in " + directory, e);
    }
    if (files.isEmpty()) {
      runner.check(
          "recorded",
          "the directory holds recorded exchanges",
          () -> {
            throw new CheckFailure("no *.json file in " + directory);
          });
    }
    for (Path file : files) {
      JsonNode recorded = read(file);
      String operationId = recorded.path("operation_id").asText("?");
      runner.check(
          "recorded",
          file.getFileName() + " (" + operationId + ") keeps the protocol",
          () -> judge(recorded));
    }
  }

  private static JsonNode read(Path file) {
    try {
      return JarvisJson.mapper().readTree(file.toFile());
    } catch (JsonProcessingException e) {
      return MissingNode.getInstance();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private String judge(JsonNode recorded) {
    if (!recorded.isObject()) {
      throw new CheckFailure("the file is not a JSON exchange object");
    }
    String operationId = recorded.path("operation_id").asText();
    ProtocolOperation op;
    try {
      op = ExchangeRules.operation(operationId);
    } catch (java.util.NoSuchElementException e) {
      throw new CheckFailure("the spec has no operation '" + operationId + "'");
    }
    JsonNode response = recorded.path("response");
    Exchange exchange =
        new Exchange(
            operationId,
            headers(recorded.path("request").path("headers")),
            recorded.path("request").path("body"),
            response.path("status").asInt(),
            headers(response.path("headers")),
            bytes(response.path("body")));
    ExchangeRules.protocolVersionDefect(exchange).ifPresent(d -> fail(d));

    List<ProtocolViolation> requestViolations = requestViolations(op, exchange);
    if (exchange.status() == op.successStatus()) {
      ExchangeRules.expectSuccess(exchange);
      if (!requestViolations.isEmpty()) {
        fail("the host accepted a request the spec refuses: " + describe(requestViolations.get(0)));
      }
      checkCursorHeaders(op, exchange);
      PurposeDefects.ofAccepted(exchange).ifPresent(RecordedExchanges::fail);
      return null;
    }
    if (exchange.status() != 400) {
      fail("status " + exchange.status() + " is neither " + op.successStatus() + " nor 400");
    }
    if (!ExchangeRules.bodyViolations(exchange).isEmpty()) {
      fail(
          "the refusal is not a valid ProtocolError: "
              + describe(ExchangeRules.bodyViolations(exchange).get(0)));
    }
    List<ProtocolViolation> headerViolations =
        requestViolations.stream().filter(ProtocolViolation::isHeader).toList();
    if (!headerViolations.isEmpty()) {
      Set<String> expected =
          headerViolations.stream().map(v -> v.errorId().getValue()).collect(Collectors.toSet());
      if (!expected.contains(exchange.errorId())) {
        fail("the request broke " + expected + ", the host refused it with " + exchange.errorId());
      }
    }
    return "refused with " + exchange.errorId();
  }

  /** Header violations first, then body violations; the timestamp is judged at its own time. */
  private static List<ProtocolViolation> requestViolations(
      ProtocolOperation op, Exchange exchange) {
    var lookup = HeaderLookup.ofLists(exchange.requestHeaders());
    Clock sentAt =
        lookup
            .apply(JarvisHeaders.REQUEST_TIMESTAMP)
            .flatMap(t -> RequestTimestamp.parse(java.util.Optional.of(t)).value())
            .map(t -> Clock.fixed(t.instant(), ZoneOffset.UTC))
            .orElse(Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));
    Parsed<RequestHeaders> headers = RequestHeaders.parse(op.operationClass(), lookup, sentAt);
    List<ProtocolViolation> violations = new ArrayList<>(headers.violations());
    if (op.requestSchema().isPresent()) {
      violations.addAll(
          PayloadValidator.forSpec().validateRequestBody(op.operationId(), exchange.requestBody()));
    }
    return violations;
  }

  private static void checkCursorHeaders(ProtocolOperation op, Exchange exchange) {
    var revision = exchange.responseHeader(JarvisHeaders.WORK_SESSION_REVISION);
    var hash = exchange.responseHeader(JarvisHeaders.LAST_EVENT_HASH);
    if (revision.isEmpty() || !op.operationClass().needsCursor()) {
      return;
    }
    var lookup = HeaderLookup.ofLists(exchange.requestHeaders());
    long expected =
        lookup.apply(JarvisHeaders.EXPECTED_WORK_SESSION_REVISION).map(Long::parseLong).orElse(0L)
            + 1;
    if (!revision.get().equals(Long.toString(expected))) {
      fail("Jarvis-WorkSession-Revision is " + revision.get() + ", expected " + expected);
    }
    JsonNode body = exchange.body();
    String bodyHash =
        body.has("last_event_hash")
            ? body.path("last_event_hash").asText()
            : body.path("event_hash").asText(null);
    if (bodyHash != null && hash.isPresent() && !bodyHash.equals(hash.get())) {
      fail("Jarvis-Last-Event-Hash is " + hash.get() + ", the answer's record says " + bodyHash);
    }
  }

  private static Map<String, List<String>> headers(JsonNode headers) {
    Map<String, List<String>> map = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> header : headers.properties()) {
      List<String> values = new ArrayList<>();
      if (header.getValue().isArray()) {
        header.getValue().forEach(v -> values.add(v.asText()));
      } else {
        values.add(header.getValue().asText());
      }
      map.put(header.getKey(), values);
    }
    return map;
  }

  private static byte[] bytes(JsonNode body) {
    if (body.isMissingNode()) {
      return new byte[0];
    }
    try {
      return JarvisJson.mapper().writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String describe(ProtocolViolation v) {
    return v.errorId().getValue() + " at " + v.field();
  }

  private static void fail(String message) {
    throw new CheckFailure(message);
  }
}
