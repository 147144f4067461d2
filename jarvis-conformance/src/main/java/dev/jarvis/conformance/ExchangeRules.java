package dev.jarvis.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.ProtocolOperations;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.eventlog.EventPage;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.requestinbox.InboxPage;
import dev.jarvis.core.requestinbox.RequestInbox;
import dev.jarvis.core.validation.PayloadValidator;
import java.util.List;
import java.util.Optional;

/** The rules every answer must keep, as checks that throw {@link CheckFailure}. */
final class ExchangeRules {

  static final String PROTOCOL_ERROR = "ProtocolError";

  private ExchangeRules() {}

  /** What is wrong with the answer's {@code Jarvis-Protocol-Version}, if anything. */
  static Optional<String> protocolVersionDefect(Exchange exchange) {
    Optional<String> version = exchange.responseHeader(JarvisHeaders.PROTOCOL_VERSION);
    if (version.isEmpty()) {
      return Optional.of(
          exchange.operationId()
              + " answered "
              + exchange.status()
              + " without "
              + JarvisHeaders.PROTOCOL_VERSION);
    }
    if (!version.get().equals(JarvisSpec.PROTOCOL_VERSION)) {
      return Optional.of(
          exchange.operationId()
              + " answered "
              + JarvisHeaders.PROTOCOL_VERSION
              + ": "
              + version.get());
    }
    return Optional.empty();
  }

  /** The operation of this id: one of the spec's, or the {@code event-log} capability's read. */
  static ProtocolOperation operation(String operationId) {
    if (operationId.equals(RequestInbox.OPERATION.operationId())) {
      return RequestInbox.OPERATION;
    }
    return operationId.equals(EventLog.OPERATION.operationId())
        ? EventLog.OPERATION
        : ProtocolOperations.byId(operationId);
  }

  /** The spec violations of the answer's body, for its status; empty when it is valid. */
  static List<ProtocolViolation> bodyViolations(Exchange exchange) {
    ProtocolOperation op = operation(exchange.operationId());
    String schema = exchange.status() == 400 ? PROTOCOL_ERROR : op.responseSchema();
    if (schema.equals(EventLog.PAGE_SCHEMA)) {
      return EventPage.violations(exchange.body(), PayloadValidator.forSpec());
    }
    if (schema.equals(RequestInbox.PAGE_SCHEMA)) {
      return InboxPage.violations(exchange.body(), PayloadValidator.forSpec());
    }
    return PayloadValidator.forSpec().validate(schema, exchange.responseBody());
  }

  /** The answer is the operation's success status with a spec-valid body. */
  static JsonNode expectSuccess(Exchange exchange) {
    ProtocolOperation op = operation(exchange.operationId());
    if (exchange.status() != op.successStatus()) {
      throw new CheckFailure(
          op.operationId()
              + " expected "
              + op.successStatus()
              + ", got "
              + exchange.status()
              + " "
              + exchange.bodyExcerpt());
    }
    List<ProtocolViolation> violations = bodyViolations(exchange);
    if (!violations.isEmpty()) {
      throw new CheckFailure(
          op.operationId()
              + " answered a "
              + op.responseSchema()
              + " the spec refuses: "
              + first(violations));
    }
    return exchange.body();
  }

  /** The answer is HTTP 400 with a spec-valid ProtocolError of {@code errorId}. */
  static void expectRefusal(Exchange exchange, String errorId) {
    if (exchange.status() != 400) {
      throw new CheckFailure(
          "expected 400 " + errorId + ", got " + exchange.status() + " " + exchange.bodyExcerpt());
    }
    List<ProtocolViolation> violations = bodyViolations(exchange);
    if (!violations.isEmpty()) {
      throw new CheckFailure("the refusal is not a valid ProtocolError: " + first(violations));
    }
    if (!exchange.errorId().equals(errorId)) {
      throw new CheckFailure("expected error_id " + errorId + ", got " + exchange.errorId());
    }
  }

  /** The answer is not a refusal for a missing mutation header. */
  static void expectNoMutationHeaderDemand(Exchange exchange) {
    String id = exchange.errorId();
    if (exchange.status() == 400
        && List.of(
                "missing_idempotency_key",
                "missing_request_timestamp",
                "missing_expected_work_session_revision",
                "missing_previous_event_hash")
            .contains(id)) {
      throw new CheckFailure("a read was refused for a missing mutation header: " + id);
    }
  }

  private static String first(List<ProtocolViolation> violations) {
    ProtocolViolation v = violations.get(0);
    return v.errorId().getValue() + " at " + v.field() + " (" + v.reason() + ")";
  }
}
