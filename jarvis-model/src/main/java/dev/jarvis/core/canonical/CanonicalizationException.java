package dev.jarvis.core.canonical;

/**
 * Thrown when a JSON value has no RFC 8785 canonical form: it is not acceptable JSON text, or it
 * holds something the I-JSON data model of RFC 8785 excludes.
 *
 * <p>{@link #pointer()} names the offending value as an RFC 6901 JSON Pointer ({@code ""} for the
 * whole document); the message quotes it too.
 */
public final class CanonicalizationException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** Why a value has no canonical form. */
  public enum Reason {
    /** Not JSON text: a syntax error, invalid UTF-8, a byte order mark, or no value at all. */
    MALFORMED_JSON,
    /** Something after the one JSON value of the document. */
    TRAILING_CONTENT,
    /** An object with two members of the same name. */
    DUPLICATE_NAME,
    /** A string or name holding a UTF-16 surrogate that is not half of a pair. */
    LONE_SURROGATE,
    /** NaN or an infinity. */
    NON_FINITE_NUMBER,
    /** A finite number whose magnitude no IEEE 754 double reaches, such as {@code 1e400}. */
    NUMBER_OUT_OF_RANGE,
    /** A tree node that is no JSON value (missing, binary or POJO node). */
    UNSUPPORTED_VALUE,
    /** Nesting, number or string size beyond the parser's limits. */
    LIMIT_EXCEEDED
  }

  private final Reason reason;
  private final String pointer;

  /**
   * @param reason why
   * @param pointer the JSON Pointer of the offending value
   * @param detail what was found there
   * @param cause the parser's exception, or null
   */
  public CanonicalizationException(Reason reason, String pointer, String detail, Throwable cause) {
    super(detail + " at JSON Pointer '" + printable(pointer) + "'", cause);
    this.reason = reason;
    this.pointer = pointer;
  }

  /** Why the value has no canonical form. */
  public Reason reason() {
    return reason;
  }

  /** The RFC 6901 JSON Pointer of the offending value; {@code ""} is the whole document. */
  public String pointer() {
    return pointer;
  }

  /** The pointer with controls and lone surrogates shown as {@code \}{@code uXXXX}. */
  private static String printable(String pointer) {
    StringBuilder sb = null;
    for (int i = 0; i < pointer.length(); i++) {
      char c = pointer.charAt(i);
      boolean pair =
          Character.isHighSurrogate(c)
              && i + 1 < pointer.length()
              && Character.isLowSurrogate(pointer.charAt(i + 1));
      boolean show = c < 0x20 || c == 0x7f || Character.isSurrogate(c) && !pair;
      if (show && sb == null) {
        sb = new StringBuilder(pointer.length() + 8).append(pointer, 0, i);
      }
      if (sb != null) {
        if (show) {
          sb.append(String.format("\\u%04x", (int) c));
        } else if (pair) {
          sb.append(c).append(pointer.charAt(++i));
        } else {
          sb.append(c);
        }
      } else if (pair) {
        i++;
      }
    }
    return sb == null ? pointer : sb.toString();
  }
}
