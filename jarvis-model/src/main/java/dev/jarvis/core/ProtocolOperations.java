package dev.jarvis.core;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;

/** The spec's operations and their {@code x-jarvis-*} rules, read from the spec itself. */
public final class ProtocolOperations {

  private static final Map<String, ProtocolOperation> BY_ID = read(JarvisSpec.tree());

  private ProtocolOperations() {}

  /** Every operation, in spec order. */
  public static List<ProtocolOperation> all() {
    return List.copyOf(BY_ID.values());
  }

  /** The operation with this operationId. */
  public static ProtocolOperation byId(String operationId) {
    ProtocolOperation op = BY_ID.get(operationId);
    if (op == null) {
      throw new NoSuchElementException("no operation " + operationId + " in the spec");
    }
    return op;
  }

  private static Map<String, ProtocolOperation> read(JsonNode spec) {
    Map<String, ProtocolOperation> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> path : spec.path("paths").properties()) {
      for (Map.Entry<String, JsonNode> method : path.getValue().properties()) {
        JsonNode op = method.getValue();
        String id = op.path("operationId").asText();
        Map.Entry<String, JsonNode> success = successResponse(op);
        out.put(
            id,
            new ProtocolOperation(
                id,
                method.getKey().toUpperCase(Locale.ROOT),
                path.getKey(),
                OperationClass.fromWireName(op.path("x-jarvis-operation-class").asText()),
                schemaName(spec, op.path("requestBody")),
                Integer.parseInt(success.getKey()),
                schemaName(spec, success.getValue())
                    .orElseThrow(() -> new IllegalStateException(id + " has no response schema")),
                idMatch(op.path("x-jarvis-path-body-id-match"), "path_parameter"),
                idMatch(op.path("x-jarvis-actor-body-id-match"), "header")));
      }
    }
    return out;
  }

  private static Map.Entry<String, JsonNode> successResponse(JsonNode op) {
    for (Map.Entry<String, JsonNode> response : op.path("responses").properties()) {
      if (response.getKey().startsWith("2")) {
        return response;
      }
    }
    throw new IllegalStateException(op.path("operationId").asText() + " has no 2xx response");
  }

  private static Optional<String> schemaName(JsonNode spec, JsonNode bodyOrResponse) {
    JsonNode body = bodyOrResponse;
    if (body.has("$ref")) {
      body = resolve(spec, body.get("$ref").asText());
    }
    JsonNode schema = body.path("content").path("application/json").path("schema");
    if (!schema.has("$ref")) {
      return Optional.empty();
    }
    String ref = schema.get("$ref").asText();
    return Optional.of(ref.substring(ref.lastIndexOf('/') + 1));
  }

  private static JsonNode resolve(JsonNode spec, String ref) {
    JsonNode node = spec;
    for (String part : ref.substring(2).split("/")) {
      node = node.path(part);
    }
    return node;
  }

  private static Optional<ProtocolOperation.IdMatch> idMatch(JsonNode match, String sourceKey) {
    if (match.isMissingNode()) {
      return Optional.empty();
    }
    return Optional.of(
        new ProtocolOperation.IdMatch(
            match.path(sourceKey).asText(),
            match.path("body_field").asText(),
            match.path("rejection_id").asText()));
  }
}
