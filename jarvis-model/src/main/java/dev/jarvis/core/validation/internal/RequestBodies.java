package dev.jarvis.core.validation.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Which component schema each operation's JSON request body must satisfy, read from the spec's
 * {@code paths} (following {@code $ref}s into {@code components.requestBodies}).
 *
 * @param schemaByOperationId the body's component schema, for each operation that takes a JSON body
 * @param operationIds every operation of the spec
 */
record RequestBodies(Map<String, String> schemaByOperationId, Set<String> operationIds) {

  private static final String REQUEST_BODY_REF_PREFIX = "#/components/requestBodies/";
  private static final String MEDIA_TYPE = "application/json";

  RequestBodies {
    schemaByOperationId = Map.copyOf(schemaByOperationId);
    operationIds = Set.copyOf(operationIds);
  }

  static RequestBodies fromSpec(SpecTree spec) {
    JsonNode document = spec.document();
    Map<String, String> schemas = new TreeMap<>();
    Set<String> ids = new TreeSet<>();
    for (Map.Entry<String, JsonNode> path : document.path("paths").properties()) {
      for (Map.Entry<String, JsonNode> operation : path.getValue().properties()) {
        JsonNode operationId = operation.getValue().path("operationId");
        if (!operationId.isTextual()) {
          continue;
        }
        JsonNode body = resolve(document, operation.getValue().path("requestBody"));
        ids.add(operationId.asText());
        JsonNode ref = body.path("content").path(MEDIA_TYPE).path("schema").path("$ref");
        if (ref.isTextual()) {
          schemas.put(operationId.asText(), SpecTree.componentOf(ref.asText()));
        }
      }
    }
    return new RequestBodies(schemas, ids);
  }

  private static JsonNode resolve(JsonNode document, JsonNode requestBody) {
    JsonNode ref = requestBody.path("$ref");
    if (!ref.isTextual()) {
      return requestBody;
    }
    String text = ref.asText();
    if (!text.startsWith(REQUEST_BODY_REF_PREFIX)) {
      throw new IllegalStateException("unsupported requestBody $ref " + text);
    }
    return document
        .path("components")
        .path("requestBodies")
        .path(text.substring(REQUEST_BODY_REF_PREFIX.length()));
  }

  /** Whether the spec defines an operation with this id. */
  boolean hasOperation(String operationId) {
    return operationIds.contains(operationId);
  }

  /** The component schema of the operation's JSON body; empty if it takes none. */
  Optional<String> schemaOf(String operationId) {
    return Optional.ofNullable(schemaByOperationId.get(operationId));
  }
}
