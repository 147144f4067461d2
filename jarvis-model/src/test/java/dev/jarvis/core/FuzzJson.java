package dev.jarvis.core;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;

/**
 * Random JSON for the property tests: Unicode text that now and then holds a lone UTF-16 surrogate,
 * numbers up to and beyond the double range, trees of them, and JSON text written so that what a
 * Jackson writer would refuse (a lone surrogate) still reaches the reader, as an escape.
 */
public final class FuzzJson {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** The spec's {@code ProtocolErrorId} enum, read from the spec itself. */
  public static final Set<String> SPEC_ERROR_IDS =
      StreamSupport.stream(
              JarvisSpec.tree().at("/components/schemas/ProtocolErrorId/enum").spliterator(), false)
          .map(JsonNode::asText)
          .collect(Collectors.toUnmodifiableSet());

  private FuzzJson() {}

  /**
   * Text from every part of UTF-16: mostly ASCII, then other BMP characters, pairs for code points
   * above U+FFFF, controls, and rarely a lone surrogate, so that most trees are carried and some
   * are not. Two adjacent pieces may join into a valid pair: {@link #hasLoneSurrogate} decides.
   */
  public static String text(FuzzRandom random) {
    return String.join("", random.listOf(4, FuzzJson::textPiece));
  }

  private static String textPiece(FuzzRandom random) {
    return switch (random.weighted(60, 20, 5, 15, 5, 1)) {
      case 0 -> random.chars('\u0000', '\u007f', 6);
      case 1 -> random.chars('\u0080', '\ud7ff', 3);
      case 2 -> random.chars('\ue000', '\uffff', 3);
      case 3 ->
          new String(
              Character.toChars(
                  random.between(
                      Character.MIN_SUPPLEMENTARY_CODE_POINT, Character.MAX_CODE_POINT)));
      case 4 -> random.chars('\u0000', '\u001f', 2);
      default -> String.valueOf(loneSurrogate(random));
    };
  }

  /** One UTF-16 surrogate code unit, high or low. */
  public static char loneSurrogate(FuzzRandom random) {
    return (char) random.between(Character.MIN_SURROGATE, Character.MAX_SURROGATE);
  }

  /** JSON numbers of every node type, rarely not finite or beyond the double range. */
  public static JsonNode number(FuzzRandom random) {
    return switch (random.weighted(20, 10, 20, 3, 3, 3, 1)) {
      case 0 -> NODES.numberNode(random.anyInt());
      case 1 -> NODES.numberNode(random.anyLong());
      case 2 -> NODES.numberNode(anyDouble(random));
      case 3 -> NODES.numberNode(anyFloat(random));
      case 4 -> NODES.numberNode(wholeNumber(random, 31));
      case 5 -> NODES.numberNode(new BigDecimal(wholeNumber(random, 27), 6));
      default -> random.oneOf(BEYOND_DOUBLES);
    };
  }

  /** Numbers that are no finite double: what the canonical form must refuse. */
  private static final List<JsonNode> BEYOND_DOUBLES =
      List.of(
          NODES.numberNode(Double.NaN),
          NODES.numberNode(Double.NEGATIVE_INFINITY),
          NODES.numberNode(new BigDecimal("1e400")),
          NODES.numberNode(new BigDecimal("-2e308")),
          NODES.numberNode(BigInteger.TEN.pow(400)));

  /**
   * Where ECMAScript's number text changes form or rounding is hard: zeros, the least and greatest
   * doubles, the bounds of plain notation (1e21, 1e-7) and the end of exact integers (2^53).
   */
  private static final List<Double> EDGE_DOUBLES =
      List.of(
          0.0,
          -0.0,
          Double.MIN_VALUE,
          -Double.MIN_NORMAL,
          Double.MAX_VALUE,
          -Double.MAX_VALUE,
          1e21,
          9.999999999999999e20,
          1e-7,
          9.999999999999999e-8,
          9007199254740993.0,
          0.1,
          -5e-324);

  /**
   * A double: an edge value, any bit pattern (every exponent and subnormals; rarely NaN or an
   * infinity), or a short decimal like the ones payloads carry.
   */
  public static double anyDouble(FuzzRandom random) {
    return switch (random.weighted(1, 4, 5)) {
      case 0 -> random.oneOf(EDGE_DOUBLES);
      case 1 -> Double.longBitsToDouble(random.anyLong());
      default -> random.anyInt() / Math.pow(10, random.between(0, 10));
    };
  }

  private static float anyFloat(FuzzRandom random) {
    return random.coin()
        ? Float.intBitsToFloat(random.anyInt())
        : random.anyInt() / (float) Math.pow(10, random.between(0, 6));
  }

  /** A whole number of 1 to {@code maxDigits} digits, either sign: every magnitude as often. */
  private static BigInteger wholeNumber(FuzzRandom random, int maxDigits) {
    String digits = random.chars('0', '9', 1, maxDigits);
    return random.coin() ? new BigInteger(digits).negate() : new BigInteger(digits);
  }

  /** Any JSON value, nested up to four levels (the depth is drawn first, as often each). */
  public static JsonNode tree(FuzzRandom random) {
    return tree(random, random.between(0, 4));
  }

  private static JsonNode tree(FuzzRandom random, int depth) {
    if (depth == 0) {
      return switch (random.weighted(5, 4, 1, 1)) {
        case 0 -> NODES.textNode(text(random));
        case 1 -> number(random);
        case 2 -> NODES.booleanNode(random.coin());
        default -> NODES.nullNode();
      };
    }
    if (random.coin()) {
      ArrayNode array = NODES.arrayNode();
      random.listOf(4, r -> tree(r, depth - 1)).forEach(array::add);
      return array;
    }
    ObjectNode object = NODES.objectNode();
    random
        .listOf(4, r -> Map.entry(text(r), tree(r, depth - 1)))
        .forEach(m -> object.set(m.getKey(), m.getValue()));
    return object;
  }

  /** Whether {@code s} holds a surrogate that is not half of a pair. */
  public static boolean hasLoneSurrogate(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)
          && i + 1 < s.length()
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        i++;
      } else if (Character.isSurrogate(c)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The double a number node stands for in canonical JSON (a float as the decimal text Jackson
   * writes for it); an infinity or NaN where it has none.
   */
  public static double canonicalDouble(JsonNode number) {
    return switch (number.numberType()) {
      case INT, LONG -> (double) number.longValue();
      case FLOAT ->
          Float.isFinite(number.floatValue())
              ? Double.parseDouble(Float.toString(number.floatValue()))
              : number.floatValue();
      case DOUBLE -> number.doubleValue();
      case BIG_INTEGER -> number.bigIntegerValue().doubleValue();
      case BIG_DECIMAL -> number.decimalValue().doubleValue();
    };
  }

  /**
   * What canonical JSON cannot carry, judged without the canonicalizer: a string or member name
   * with a lone surrogate, or a number that is no finite double.
   */
  public static boolean cannotCarry(JsonNode node) {
    if (node.isTextual()) {
      return hasLoneSurrogate(node.textValue());
    }
    if (node.isNumber()) {
      return !Double.isFinite(canonicalDouble(node));
    }
    for (Map.Entry<String, JsonNode> member : node.properties()) {
      if (hasLoneSurrogate(member.getKey()) || cannotCarry(member.getValue())) {
        return true;
      }
    }
    for (JsonNode item : node.isArray() ? node : List.<JsonNode>of()) {
      if (cannotCarry(item)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether two values are the same JSON value as canonical JSON sees it: numbers by their double,
   * objects by their members regardless of order.
   */
  public static boolean sameValue(JsonNode a, JsonNode b) {
    if (a.isNumber() || b.isNumber()) {
      return a.isNumber() && b.isNumber() && canonicalDouble(a) == canonicalDouble(b);
    }
    if (a.getNodeType() != b.getNodeType() || a.size() != b.size()) {
      return false;
    }
    if (a.isObject()) {
      for (Map.Entry<String, JsonNode> member : a.properties()) {
        JsonNode other = b.get(member.getKey());
        if (other == null || !sameValue(member.getValue(), other)) {
          return false;
        }
      }
      return true;
    }
    if (a.isArray()) {
      for (int i = 0; i < a.size(); i++) {
        if (!sameValue(a.get(i), b.get(i))) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }

  /** RFC 6901: empty, or steps each after a '/', with '~' only as "~0" or "~1". */
  public static boolean isJsonPointer(String field) {
    return field.isEmpty() || field.startsWith("/") && !field.matches("(?s).*~([^01]|$).*");
  }

  /** JSON text of a tree with every non-ASCII character escaped, so lone surrogates survive. */
  public static byte[] escapedText(JsonNode node) {
    return escapedText(node, Map.of());
  }

  /**
   * As {@link #escapedText(JsonNode)}, writing the member named in {@code duplicates} of each given
   * object twice: a duplicate key, which no tree can hold.
   */
  public static byte[] escapedText(JsonNode node, Map<JsonNode, String> duplicates) {
    StringBuilder sb = new StringBuilder();
    write(node, new IdentityHashMap<>(duplicates), sb);
    return sb.toString().getBytes(StandardCharsets.US_ASCII);
  }

  private static void write(JsonNode node, Map<JsonNode, String> duplicates, StringBuilder sb) {
    if (node.isTextual()) {
      writeString(node.textValue(), sb);
    } else if (node.isArray()) {
      sb.append('[');
      for (int i = 0; i < node.size(); i++) {
        sb.append(i > 0 ? "," : "");
        write(node.get(i), duplicates, sb);
      }
      sb.append(']');
    } else if (node.isObject()) {
      sb.append('{');
      boolean first = true;
      String twice = duplicates.get(node);
      for (Map.Entry<String, JsonNode> member : node.properties()) {
        int times = member.getKey().equals(twice) ? 2 : 1;
        for (int t = 0; t < times; t++) {
          sb.append(first ? "" : ",");
          first = false;
          writeString(member.getKey(), sb);
          sb.append(':');
          write(member.getValue(), duplicates, sb);
        }
      }
      sb.append('}');
    } else if (node.isNumber()) {
      sb.append(
          node.numberValue()); // NaN and Infinity bare, as the canonicalizer's reader takes them
    } else {
      sb.append(node.toString()); // true, false, null
    }
  }

  private static void writeString(String s, StringBuilder sb) {
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c < 0x20 || c > 0x7e) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    sb.append('"');
  }
}
