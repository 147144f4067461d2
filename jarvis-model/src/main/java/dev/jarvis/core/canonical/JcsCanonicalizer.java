package dev.jarvis.core.canonical;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.canonical.internal.CanonicalWriter;
import java.io.IOException;
import java.io.InputStream;

/**
 * The RFC 8785 JSON Canonicalization Scheme (JCS): the one byte sequence that stands for a JSON
 * value, for hashing and signing.
 *
 * <p>The canonical form is UTF-8 without insignificant whitespace; object members are sorted by the
 * UTF-16 code units of their names; numbers are IEEE 754 doubles written as ECMAScript writes them
 * (shortest round-trip digits, {@code 1e+21}, {@code 1e-7}, {@code -0} as {@code 0}); strings keep
 * every character as is except {@code "}, {@code \} and the controls below U+0020, which are
 * escaped as ECMAScript {@code JSON.stringify} escapes them.
 *
 * <p>Refused with a {@link CanonicalizationException} naming the JSON Pointer of the offending
 * value: text that is not strict JSON in UTF-8 (including a byte order mark, and anything after the
 * value), duplicate member names, strings or names holding a lone surrogate, NaN and infinities,
 * and numbers beyond the double range such as {@code 1e400}. Numbers are otherwise rounded to the
 * nearest double, as RFC 8785 prescribes: {@code 1e-400} is {@code 0}, and integers beyond 2^53
 * lose their low digits.
 *
 * <p>Trees: an {@link JsonNode} is canonicalized as the JSON value it stands for. Its numbers are
 * rounded to the nearest double as text would be; a float node counts as the decimal text Jackson
 * writes for it ({@link Float#toString(float)}), so that a tree and its serialization by a default
 * {@code ObjectMapper} canonicalize alike. Missing, binary and POJO nodes are refused.
 *
 * <p>All methods are thread-safe. Each thread reuses its own buffers.
 */
public final class JcsCanonicalizer {

  private JcsCanonicalizer() {}

  /** The canonical form of UTF-8 JSON text. */
  public static byte[] canonicalize(byte[] json) {
    return canonicalize(json, 0, json.length);
  }

  /** The canonical form of the UTF-8 JSON text {@code json[offset, offset + length)}. */
  public static byte[] canonicalize(byte[] json, int offset, int length) {
    java.util.Objects.checkFromIndexSize(offset, length, json.length);
    CanonicalWriter w = CanonicalWriter.acquire();
    try {
      w.writeJson(json, offset, length);
      return w.toByteArray();
    } finally {
      w.release();
    }
  }

  /** The canonical form of JSON text given as a Java string. */
  public static byte[] canonicalize(String json) {
    CanonicalWriter w = CanonicalWriter.acquire();
    try {
      w.writeJson(json);
      return w.toByteArray();
    } finally {
      w.release();
    }
  }

  /**
   * The canonical form of the UTF-8 JSON text read from {@code json} to its end. The stream is not
   * closed.
   *
   * @throws IOException if the stream cannot be read
   */
  public static byte[] canonicalize(InputStream json) throws IOException {
    return canonicalize(json.readAllBytes());
  }

  /**
   * Checks that a Jackson tree has a canonical form, without keeping it: what a receiver asks
   * before it accepts a payload it will hash later, so that nothing it accepted can fail to hash.
   *
   * @throws CanonicalizationException naming the first value that has none
   */
  public static void requireCanonicalForm(JsonNode value) {
    CanonicalWriter w = CanonicalWriter.acquire();
    try {
      w.writeTree(value);
    } finally {
      w.release();
    }
  }

  /** The canonical form of the JSON value a Jackson tree stands for. */
  public static byte[] canonicalize(JsonNode value) {
    CanonicalWriter w = CanonicalWriter.acquire();
    try {
      w.writeTree(value);
      return w.toByteArray();
    } finally {
      w.release();
    }
  }
}
