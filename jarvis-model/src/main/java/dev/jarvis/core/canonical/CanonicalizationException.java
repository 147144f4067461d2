package dev.jarvis.core.canonical;

import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.model.ProtocolErrorId;

/**
 * Thrown when a JSON value has no RFC 8785 canonical form: it is not acceptable JSON text, or it
 * holds something the I-JSON data model of RFC 8785 excludes.
 *
 * <p>{@link #pointer()} names the offending value as an RFC 6901 JSON Pointer ({@code ""} for the
 * whole document); the message quotes it too.
 *
 * <p>Input that cannot be hashed is bad input, never a failure of the receiver: {@link
 * #toViolation(String)} is the one refusal for it, {@code unknown_state} at the offending pointer,
 * the same violation the payload validator reports for such text (see {@code
 * docs/protocol-decisions.md}). A caller hashing a tree turns it into a refusal in one line:
 *
 * <pre>{@code
 * try {
 *   hash = EventHash.of(event);
 * } catch (CanonicalizationException e) {
 *   throw JarvisProtocolException.local(e.toViolation("jarvis_event")); // or the host's refusal
 * }
 * }</pre>
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

  /**
   * This refusal as the protocol's violation: {@code unknown_state} (the spec has no narrower id
   * for input it cannot read), {@code field} the offending value's pointer ({@code ""} for the
   * whole document, sent as {@code /} on the wire, as for every violation). The reason says what
   * kind of text was refused, never the text itself, which may hold a secret.
   *
   * @param objectType the protocol object that was hashed, in the spec's snake_case ({@code
   *     jarvis_event}, {@code policy_decision}, …)
   */
  public ProtocolViolation toViolation(String objectType) {
    return toViolation(objectType, "");
  }

  /**
   * As {@link #toViolation(String)}, for a value that sits at {@code base} inside the payload: a
   * refusal from {@code ActionHash.of(decision.path("requested_action"))} is {@code
   * toViolation("policy_decision", "/requested_action")}.
   *
   * @param base the JSON Pointer of the hashed value within the payload ({@code ""} for the root)
   */
  public ProtocolViolation toViolation(String objectType, String base) {
    return new ProtocolViolation(
        ProtocolErrorId.UNKNOWN_STATE,
        objectType,
        base + pointer,
        refusalReason(),
        refusalRemediation());
  }

  private String refusalReason() {
    return switch (reason) {
      case LONE_SURROGATE ->
          "A string or member name holds a lone UTF-16 surrogate (U+D800 to U+DFFF outside a"
              + " pair), which canonical JSON (RFC 8785, UTF-8) cannot carry.";
      case NON_FINITE_NUMBER, NUMBER_OUT_OF_RANGE ->
          "A number is not finite or lies beyond the range of IEEE 754 doubles, which canonical"
              + " JSON (RFC 8785) cannot carry.";
      case DUPLICATE_NAME -> "An object has two members of the same name.";
      case LIMIT_EXCEEDED ->
          "The JSON nests deeper, or holds a longer number or string, than is read.";
      case MALFORMED_JSON, TRAILING_CONTENT, UNSUPPORTED_VALUE -> "The payload is not JSON text.";
    };
  }

  private String refusalRemediation() {
    return switch (reason) {
      case LONE_SURROGATE ->
          "Send well-formed Unicode text: every UTF-16 surrogate escape (\\uD800 to \\uDFFF)"
              + " must be half of a pair.";
      case NON_FINITE_NUMBER, NUMBER_OUT_OF_RANGE ->
          "Send numbers within the IEEE 754 double range; send larger values as strings.";
      default -> "Send one well-formed JSON document, as UTF-8, with unique member names.";
    };
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
