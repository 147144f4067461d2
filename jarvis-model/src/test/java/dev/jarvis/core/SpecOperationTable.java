package dev.jarvis.core;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The spec's operations as the tests need them, read from {@link JarvisSpec#tree()}: nothing here
 * is typed in by hand.
 */
public final class SpecOperationTable {

  /**
   * One operation.
   *
   * @param operationId the spec's {@code operationId}
   * @param operationClass its {@code x-jarvis-operation-class}
   * @param requiredHeaders names of its required header parameters, in the spec's order
   * @param optionalHeaders names of its optional header parameters, in the spec's order
   * @param schemas every schema its request body or success response reaches
   * @param node the operation object itself
   */
  public record Operation(
      String operationId,
      OperationClass operationClass,
      List<String> requiredHeaders,
      List<String> optionalHeaders,
      Set<String> schemas,
      JsonNode node) {}

  private static final JsonNode SPEC = JarvisSpec.tree();

  private SpecOperationTable() {}

  /** The spec document. */
  public static JsonNode spec() {
    return SPEC;
  }

  /** Every operation, in the spec's order. */
  public static List<Operation> operations() {
    List<Operation> out = new ArrayList<>();
    for (Map.Entry<String, JsonNode> path : SPEC.path("paths").properties()) {
      for (Map.Entry<String, JsonNode> method : path.getValue().properties()) {
        JsonNode op = method.getValue();
        List<String> required = new ArrayList<>();
        List<String> optional = new ArrayList<>();
        for (JsonNode p : op.path("parameters")) {
          JsonNode param = resolve(p);
          if (param.path("in").asText().equals("header")) {
            (param.path("required").asBoolean() ? required : optional)
                .add(param.path("name").asText());
          }
        }
        Set<String> schemas = new LinkedHashSet<>();
        reach(op.path("requestBody"), schemas);
        for (Map.Entry<String, JsonNode> response : op.path("responses").properties()) {
          if (response.getKey().startsWith("2")) {
            reach(response.getValue(), schemas);
          }
        }
        out.add(
            new Operation(
                op.path("operationId").asText(),
                OperationClass.fromWireName(op.path("x-jarvis-operation-class").asText()),
                List.copyOf(required),
                List.copyOf(optional),
                Set.copyOf(schemas),
                op));
      }
    }
    return out;
  }

  /** The node a {@code $ref} names, or the node itself. */
  public static JsonNode resolve(JsonNode node) {
    JsonNode n = node;
    while (n.has("$ref")) {
      n = SPEC.at(n.path("$ref").asText().substring(1));
    }
    return n;
  }

  /** Collects the names of every schema reachable from {@code node} through {@code $ref}s. */
  private static void reach(JsonNode node, Set<String> schemas) {
    if (node.isObject()) {
      JsonNode ref = node.get("$ref");
      if (ref != null) {
        String target = ref.asText();
        String prefix = "#/components/schemas/";
        if (target.startsWith(prefix) && !schemas.add(target.substring(prefix.length()))) {
          return;
        }
        reach(SPEC.at(target.substring(1)), schemas);
      }
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        if (!e.getKey().equals("$ref")) {
          reach(e.getValue(), schemas);
        }
      }
    } else if (node.isArray()) {
      for (JsonNode item : node) {
        reach(item, schemas);
      }
    }
  }
}
