package dev.jarvis.core.validation.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.jarvis.core.canonical.internal.CanonicalWriter;
import java.util.Map;

/**
 * A quick look for what canonical JSON cannot carry, so that the canonicalizer, the one judge of
 * it, is asked only about trees that may hold some: a lone UTF-16 surrogate (any surrogate makes a
 * string suspect), a number that may be no finite double, a node that is no JSON value, nesting
 * near the canonicalizer's limit. It never clears a tree the canonicalizer would refuse; writing
 * the canonical form of every payload cost about as much as checking it against its schema.
 */
final class CarriedTree {

  private CarriedTree() {}

  /** True if canonical JSON surely carries the tree; false if the canonicalizer must judge. */
  static boolean surelyCarried(JsonNode node) {
    return carried(node, 0);
  }

  private static boolean carried(JsonNode node, int depth) {
    if (node instanceof TextNode) {
      return noSurrogate(node.textValue());
    }
    if (node instanceof ObjectNode) {
      if (depth >= CanonicalWriter.MAX_DEPTH - 1) {
        return false;
      }
      for (Map.Entry<String, JsonNode> member : node.properties()) {
        if (!noSurrogate(member.getKey()) || !carried(member.getValue(), depth + 1)) {
          return false;
        }
      }
      return true;
    }
    if (node instanceof ArrayNode) {
      if (depth >= CanonicalWriter.MAX_DEPTH - 1) {
        return false;
      }
      for (int i = 0; i < node.size(); i++) {
        if (!carried(node.get(i), depth + 1)) {
          return false;
        }
      }
      return true;
    }
    if (node.isNumber()) {
      return finite(node);
    }
    return node.isBoolean() || node.isNull();
  }

  private static boolean finite(JsonNode number) {
    JsonParser.NumberType type = number.numberType();
    if (type == JsonParser.NumberType.INT || type == JsonParser.NumberType.LONG) {
      return true;
    }
    if (type == JsonParser.NumberType.DOUBLE) {
      return Double.isFinite(number.doubleValue());
    }
    if (type == JsonParser.NumberType.FLOAT) {
      return Float.isFinite(number.floatValue());
    }
    if (type == JsonParser.NumberType.BIG_INTEGER) {
      return Double.isFinite(number.bigIntegerValue().doubleValue());
    }
    return Double.isFinite(number.decimalValue().doubleValue());
  }

  private static boolean noSurrogate(String text) {
    for (int i = 0; i < text.length(); i++) {
      if (Character.isSurrogate(text.charAt(i))) {
        return false;
      }
    }
    return true;
  }
}
