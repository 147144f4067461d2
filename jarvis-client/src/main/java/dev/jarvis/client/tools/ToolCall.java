package dev.jarvis.client.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import java.util.Objects;
import java.util.Optional;

/**
 * One tool call a model asked for, as an agent framework hands it over: model-written, so every
 * part of it is untrusted input.
 *
 * @param toolName the name of the tool the framework resolved the call to
 * @param arguments the call's arguments as the model wrote them (JSON, normally an object)
 * @param callId the model's id of the call, where the framework knows it (the action key)
 */
public record ToolCall(String toolName, String arguments, Optional<String> callId) {

  public ToolCall {
    Objects.requireNonNull(toolName, "toolName");
    Objects.requireNonNull(arguments, "arguments");
    Objects.requireNonNull(callId, "callId");
    callId = callId.filter(id -> !id.isBlank());
  }

  /** A call without an id. */
  public static ToolCall of(String toolName, String arguments) {
    return new ToolCall(toolName, arguments, Optional.empty());
  }

  /**
   * The arguments as a JSON object; empty where they are not one (blank arguments read as an empty
   * object, as frameworks send a call without parameters).
   */
  public Optional<JsonNode> argumentsObject() {
    if (arguments.isBlank()) {
      return Optional.of(JarvisJson.mapper().createObjectNode());
    }
    try {
      JsonNode tree = JarvisJson.mapper().readTree(arguments);
      return tree != null && tree.isObject() ? Optional.of(tree) : Optional.empty();
    } catch (java.io.IOException e) {
      return Optional.empty();
    }
  }

  /**
   * The scalar argument {@code name} as text: empty where the arguments are no object, or the
   * argument is missing, null, blank, an object or an array.
   */
  public Optional<String> argument(String name) {
    Objects.requireNonNull(name, "name");
    return argumentsObject()
        .map(args -> args.get(name))
        .filter(JsonNode::isValueNode)
        .filter(v -> !v.isNull())
        .map(JsonNode::asText)
        .filter(v -> !v.isBlank());
  }
}
