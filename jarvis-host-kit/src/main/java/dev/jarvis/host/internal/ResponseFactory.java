package dev.jarvis.host.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.StoredResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Builds the host's answers, each with the protocol headers every response carries. */
public final class ResponseFactory {

  /** Response header: the WorkSession revision after an accepted WorkSession mutation. */
  public static final String WORK_SESSION_REVISION = JarvisHeaders.WORK_SESSION_REVISION;

  /** Response header: the last event hash after an accepted WorkSession mutation. */
  public static final String LAST_EVENT_HASH = JarvisHeaders.LAST_EVENT_HASH;

  private final HostConfig config;
  private final String capabilities;

  public ResponseFactory(HostConfig config) {
    this.config = config;
    this.capabilities = String.join(", ", new java.util.TreeSet<>(config.capabilities()));
  }

  /** {@code Jarvis-Protocol-Version} and {@code Jarvis-Host-Capabilities}. */
  public Map<String, String> protocolHeaders() {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(JarvisHeaders.PROTOCOL_VERSION, JarvisSpec.PROTOCOL_VERSION);
    if (!capabilities.isEmpty()) {
      // The header's grammar has no empty list: a host declaring nothing sends none.
      headers.put(JarvisHeaders.HOST_CAPABILITIES, capabilities);
    }
    return headers;
  }

  /** A success, with the cursor headers after a WorkSession mutation. */
  public StoredResponse success(int status, byte[] body, Optional<ChainCursor> cursor) {
    Map<String, String> headers = protocolHeaders();
    headers.put("Content-Type", "application/json");
    cursor.ifPresent(
        c -> {
          headers.put(WORK_SESSION_REVISION, Long.toString(c.revision()));
          headers.put(LAST_EVENT_HASH, c.lastEventHash());
        });
    return new StoredResponse(status, headers, body);
  }

  /** A {@code ProtocolError} answer with a fresh trace id. */
  public StoredResponse error(int status, ProtocolViolation violation) {
    return error(status, violation, config.traceIds().get());
  }

  /** A {@code ProtocolError} answer with this trace id. */
  public StoredResponse error(int status, ProtocolViolation violation, String traceId) {
    Map<String, String> headers = protocolHeaders();
    headers.put("Content-Type", "application/json");
    return new StoredResponse(status, headers, bytes(violation.toProtocolError(traceId)));
  }

  /** JSON bytes of a record or tree, written by the strict wire mapping. */
  public static byte[] bytes(Object value) {
    try {
      return JarvisJson.mapper().writeValueAsBytes(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write " + value.getClass().getSimpleName(), e);
    }
  }

  /** JSON bytes of a tree. */
  public static byte[] bytes(JsonNode tree) {
    return bytes((Object) tree);
  }
}
