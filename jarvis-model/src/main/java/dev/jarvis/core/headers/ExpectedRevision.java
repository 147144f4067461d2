package dev.jarvis.core.headers;

import dev.jarvis.model.ProtocolErrorId;
import java.util.Optional;

/**
 * {@code Jarvis-Expected-WorkSession-Revision}: the WorkSession revision the caller last read, or
 * {@code 0} when creating a WorkSession.
 *
 * <p>Text form: decimal digits only, no sign, no leading zeros, at most 15 digits (the range of an
 * RFC 8941 integer, exact in every JSON number implementation). Absent, empty, not an integer,
 * negative, with leading zeros or too long is {@code missing_expected_work_session_revision}, with
 * a reason that says which.
 *
 * @param value the revision, 0 to {@value #MAX}
 */
public record ExpectedRevision(long value) {

  /** The largest revision the header can carry. */
  public static final long MAX = 999_999_999_999_999L;

  /** The revision sent when creating a WorkSession. */
  public static final ExpectedRevision GENESIS = new ExpectedRevision(0);

  private static final int MAX_DIGITS = 15;

  public ExpectedRevision {
    if (value < 0 || value > MAX) {
      throw new IllegalArgumentException("a revision is 0 to " + MAX);
    }
  }

  /** Parses the header text; {@code raw} is empty when the header is absent. */
  public static Parsed<ExpectedRevision> parse(Optional<String> raw) {
    return HeaderText.required(
        raw,
        ProtocolErrorId.MISSING_EXPECTED_WORK_SESSION_REVISION,
        JarvisHeaders.EXPECTED_WORK_SESSION_REVISION,
        value ->
            defect(value)
                .<Parsed<ExpectedRevision>>map(
                    why ->
                        Parsed.refused(
                            HeaderText.malformed(
                                ProtocolErrorId.MISSING_EXPECTED_WORK_SESSION_REVISION,
                                JarvisHeaders.EXPECTED_WORK_SESSION_REVISION,
                                why)))
                .orElseGet(() -> Parsed.accepted(new ExpectedRevision(Long.parseLong(value)))));
  }

  private static Optional<String> defect(String value) {
    boolean negative = value.startsWith("-");
    String digits = negative ? value.substring(1) : value;
    if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
      return Optional.of("it is not a non-negative decimal integer");
    }
    if (negative) {
      return Optional.of("it is negative");
    }
    if (digits.length() > 1 && digits.charAt(0) == '0') {
      return Optional.of("it has leading zeros");
    }
    if (digits.length() > MAX_DIGITS) {
      return Optional.of("it has more than " + MAX_DIGITS + " digits");
    }
    return Optional.empty();
  }

  /** The header text. */
  public String headerValue() {
    return Long.toString(value);
  }
}
