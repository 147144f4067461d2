package dev.jarvis.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.headers.JarvisHeaders;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Builds the stub host's answers with the protocol response headers: {@code
 * Jarvis-Protocol-Version}, {@code Jarvis-Host-Capabilities}, and, when the host declares {@value
 * #CURSOR_HEADERS}, the WorkSession cursor after every accepted WorkSession mutation.
 */
final class ProtocolAnswers {

  /** The capability under which a host sends the cursor headers. */
  static final String CURSOR_HEADERS = JarvisHeaders.CURSOR_HEADERS_CAPABILITY;

  /** Response header: the WorkSession revision after the accepted mutation. */
  static final String WORK_SESSION_REVISION = JarvisHeaders.WORK_SESSION_REVISION;

  /** Response header: the WorkSession's last event hash after the accepted mutation. */
  static final String LAST_EVENT_HASH = JarvisHeaders.LAST_EVENT_HASH;

  private final List<String> capabilities;
  private final Supplier<String> ids;

  ProtocolAnswers(List<String> capabilities, Supplier<String> ids) {
    this.capabilities = List.copyOf(capabilities);
    this.ids = ids;
  }

  /** The operation's success status and body, with the cursor if it moved. */
  StubResponse success(ProtocolOperation op, JsonNode body, Optional<ChainCursor> cursor) {
    Map<String, String> headers = protocolHeaders();
    if (cursor.isPresent() && capabilities.contains(CURSOR_HEADERS)) {
      headers.put(WORK_SESSION_REVISION, Long.toString(cursor.get().revision()));
      headers.put(LAST_EVENT_HASH, cursor.get().lastEventHash());
    }
    return StubResponse.json(op.successStatus(), headers, body);
  }

  /** HTTP 400 with the violation as a ProtocolError. */
  StubResponse refusal(ProtocolViolation violation) {
    return refusal(400, violation);
  }

  /** The violation as a ProtocolError, with another status (404 for a path the spec lacks). */
  StubResponse refusal(int status, ProtocolViolation violation) {
    JsonNode body =
        JarvisJson.mapper().valueToTree(violation.toProtocolError("trace:stub-" + ids.get()));
    return StubResponse.json(status, protocolHeaders(), body);
  }

  /** HTTP 500 naming a defect of the stub itself; deliberately not a protocol answer. */
  StubResponse defect(String description) {
    ObjectNode body = JsonNodeFactory.instance.objectNode();
    body.put("stub_defect", description);
    return new StubResponse(
        500,
        Map.of("Content-Type", "application/json"),
        Optional.of(body),
        Optional.empty(),
        Duration.ZERO);
  }

  private Map<String, String> protocolHeaders() {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", "application/json");
    headers.put(JarvisHeaders.PROTOCOL_VERSION, JarvisSpec.PROTOCOL_VERSION);
    if (!capabilities.isEmpty()) {
      headers.put(JarvisHeaders.HOST_CAPABILITIES, String.join(", ", capabilities));
    }
    return headers;
  }
}
