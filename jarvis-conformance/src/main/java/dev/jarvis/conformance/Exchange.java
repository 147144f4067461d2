package dev.jarvis.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.headers.HeaderLookup;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One request and the host's answer, live or recorded.
 *
 * @param operationId the spec operation the request was for
 * @param requestHeaders the request's headers
 * @param requestBody the request's body, a missing node when there was none
 * @param status the HTTP status of the answer
 * @param responseHeaders the answer's headers
 * @param responseBody the answer's body bytes
 */
record Exchange(
    String operationId,
    Map<String, List<String>> requestHeaders,
    JsonNode requestBody,
    int status,
    Map<String, List<String>> responseHeaders,
    byte[] responseBody) {

  /** An answer header, case-insensitively. */
  Optional<String> responseHeader(String name) {
    return HeaderLookup.ofLists(responseHeaders).apply(name);
  }

  /** The answer's body parsed, or a missing node if it is empty or not JSON. */
  JsonNode body() {
    if (responseBody.length == 0) {
      return MissingNode.getInstance();
    }
    try {
      return JarvisJson.mapper().readTree(responseBody);
    } catch (IOException e) {
      return MissingNode.getInstance();
    }
  }

  /** The answer's body as text, shortened for a report. */
  String bodyExcerpt() {
    String text = new String(responseBody, java.nio.charset.StandardCharsets.UTF_8);
    return text.length() > 300 ? text.substring(0, 300) + "…" : text;
  }

  /** The {@code error_id} of a ProtocolError answer; empty otherwise. */
  String errorId() {
    return body().path("error_id").asText();
  }
}
