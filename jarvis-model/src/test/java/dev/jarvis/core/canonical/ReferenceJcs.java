package dev.jarvis.core.canonical;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;

/**
 * A slow, plain reading of RFC 8785 and ECMA-262 to test the fast implementation against: numbers
 * by a BigDecimal search for the shortest, closest decimal; strings char by char; members through a
 * {@link TreeMap} (String order is UTF-16 code unit order).
 */
final class ReferenceJcs {

  private ReferenceJcs() {}

  /** ECMA-262 Number::toString(v), searching every digit count from 1 up. */
  static String number(double v) {
    if (!Double.isFinite(v)) {
      throw new IllegalArgumentException("not finite");
    }
    if (v == 0) {
      return "0";
    }
    BigDecimal exact = new BigDecimal(Math.abs(v));
    for (int p = 1; p <= 17; p++) {
      BigDecimal d = shortestAt(exact, Math.abs(v), p);
      if (d != null) {
        return (v < 0 ? "-" : "") + layout(d);
      }
    }
    throw new AssertionError("no 17-digit decimal reads back as " + v);
  }

  /**
   * The decimal of p significant digits closest to {@code exact} that reads back as {@code v}, or
   * null if none does: the round-half-even neighbour if it reads back, else the other neighbour.
   */
  static BigDecimal shortestAt(BigDecimal exact, double v, int p) {
    BigDecimal near = exact.round(new MathContext(p, RoundingMode.HALF_EVEN));
    if (readsBackAs(near, v)) {
      return near;
    }
    RoundingMode away =
        near.compareTo(exact) > 0 ? RoundingMode.FLOOR : RoundingMode.CEILING; // the other side
    BigDecimal other = exact.round(new MathContext(p, away));
    return readsBackAs(other, v) ? other : null;
  }

  static boolean readsBackAs(BigDecimal d, double v) {
    return Double.parseDouble(d.toString()) == v;
  }

  /** ECMA-262 Number::toString steps 5 to 10 for a positive decimal. */
  static String layout(BigDecimal d) {
    BigDecimal s = d.stripTrailingZeros();
    String digits = s.unscaledValue().toString();
    int k = digits.length();
    int n = k - s.scale(); // d = 0.digits * 10^n
    if (k <= n && n <= 21) {
      return digits + "0".repeat(n - k);
    }
    if (0 < n && n <= 21) {
      return digits.substring(0, n) + "." + digits.substring(n);
    }
    if (-6 < n && n <= 0) {
      return "0." + "0".repeat(-n) + digits;
    }
    String e = (n - 1 < 0 ? "-" : "+") + Math.abs(n - 1);
    return k == 1 ? digits + "e" + e : digits.charAt(0) + "." + digits.substring(1) + "e" + e;
  }

  /** A JSON string as JSON.stringify writes it; null if it holds a lone surrogate. */
  static String string(String s) {
    StringBuilder sb = new StringBuilder("\"");
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"':
          sb.append("\\\"");
          break;
        case '\\':
          sb.append("\\\\");
          break;
        case '\b':
          sb.append("\\b");
          break;
        case '\f':
          sb.append("\\f");
          break;
        case '\n':
          sb.append("\\n");
          break;
        case '\r':
          sb.append("\\r");
          break;
        case '\t':
          sb.append("\\t");
          break;
        default:
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else if (Character.isHighSurrogate(c)
              && i + 1 < s.length()
              && Character.isLowSurrogate(s.charAt(i + 1))) {
            sb.append(c).append(s.charAt(++i));
          } else if (Character.isSurrogate(c)) {
            return null;
          } else {
            sb.append(c);
          }
      }
    }
    return sb.append('"').toString();
  }

  /** The canonical text of a tree. */
  static String tree(JsonNode node) {
    StringBuilder sb = new StringBuilder();
    tree(node, sb);
    return sb.toString();
  }

  static byte[] treeBytes(JsonNode node) {
    return tree(node).getBytes(StandardCharsets.UTF_8);
  }

  private static void tree(JsonNode node, StringBuilder sb) {
    if (node.isObject()) {
      Map<String, JsonNode> sorted = new TreeMap<>();
      for (Map.Entry<String, JsonNode> e : node.properties()) {
        sorted.put(e.getKey(), e.getValue());
      }
      sb.append('{');
      boolean first = true;
      for (Map.Entry<String, JsonNode> e : sorted.entrySet()) {
        if (!first) {
          sb.append(',');
        }
        first = false;
        sb.append(string(e.getKey())).append(':');
        tree(e.getValue(), sb);
      }
      sb.append('}');
    } else if (node.isArray()) {
      sb.append('[');
      for (int i = 0; i < node.size(); i++) {
        if (i > 0) {
          sb.append(',');
        }
        tree(node.get(i), sb);
      }
      sb.append(']');
    } else if (node.isTextual()) {
      sb.append(string(node.textValue()));
    } else if (node.isNumber()) {
      sb.append(number(Double.parseDouble(node.numberValue().toString())));
    } else {
      sb.append(node.toString()); // true, false, null
    }
  }
}
