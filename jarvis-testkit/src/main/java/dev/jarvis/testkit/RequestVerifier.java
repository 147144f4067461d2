package dev.jarvis.testkit;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.headers.Parsed;
import dev.jarvis.core.headers.RequestHeaders;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.model.ProtocolErrorId;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks what a client sent against the spec: the protocol headers its operation class requires
 * (present, well formed, consistent), the body against the request schema, and the {@code
 * x-jarvis-*-id-match} rules between body, path and {@code Jarvis-Actor-Id}.
 */
final class RequestVerifier {

  /**
   * A request that passed every check.
   *
   * @param headers the parsed protocol headers
   * @param body the parsed body; a missing node for operations without a body
   */
  record Verified(RequestHeaders headers, JsonNode body) {}

  private final Clock clock;
  private final PayloadValidator validator;

  RequestVerifier(Clock clock, PayloadValidator validator) {
    this.clock = clock;
    this.validator = validator;
  }

  /** The verified request, or every violation found in the first layer that has any. */
  Parsed<Verified> verify(
      ProtocolOperation op, Map<String, String> pathParameters, StubRequest request) {
    Parsed<RequestHeaders> headers =
        RequestHeaders.parse(op.operationClass(), request.lookup(), clock);
    if (!headers.isAccepted()) {
      return Parsed.refused(headers.violations());
    }
    JsonNode parsedBody = MissingNode.getInstance();
    if (op.requestSchema().isPresent()) {
      List<ProtocolViolation> bodyViolations =
          validator.validateRequestBody(op.operationId(), request.body());
      if (!bodyViolations.isEmpty()) {
        return Parsed.refused(bodyViolations);
      }
      parsedBody = parse(request.body());
    }
    JsonNode body = parsedBody;
    List<ProtocolViolation> mismatches = new ArrayList<>();
    String actor = headers.value().orElseThrow().actorId().headerValue();
    op.pathBodyMatch()
        .flatMap(m -> mismatch(m, pathParameters.get(m.source()), body, op))
        .ifPresent(mismatches::add);
    op.actorBodyMatch().flatMap(m -> mismatch(m, actor, body, op)).ifPresent(mismatches::add);
    if (!mismatches.isEmpty()) {
      return Parsed.refused(mismatches);
    }
    return Parsed.accepted(new Verified(headers.value().orElseThrow(), body));
  }

  private static Optional<ProtocolViolation> mismatch(
      ProtocolOperation.IdMatch match, String expected, JsonNode body, ProtocolOperation op) {
    String actual = body.path(match.bodyField()).asText();
    if (actual.equals(expected)) {
      return Optional.empty();
    }
    String source =
        match.source().equals(JarvisHeaders.ACTOR_ID)
            ? match.source()
            : "path parameter " + match.source();
    return Optional.of(
        ProtocolViolation.of(
            ProtocolErrorId.fromValue(match.rejectionId()),
            op.requestSchema().map(ObjectTypes::of).orElse("request"),
            "/" + match.bodyField(),
            match.bodyField() + " is '" + actual + "' but " + source + " is '" + expected + "'."));
  }

  private static JsonNode parse(byte[] body) {
    try {
      return JarvisJson.mapper().readTree(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the validator accepted a body Jackson cannot read", e);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }
}
