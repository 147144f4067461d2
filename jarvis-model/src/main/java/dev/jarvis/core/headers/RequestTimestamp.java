package dev.jarvis.core.headers;

import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.model.ProtocolErrorId;
import java.math.BigDecimal;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code Jarvis-Request-Timestamp}: when a mutation was sent, checked against the receiver's clock.
 *
 * <h2>Accepted text</h2>
 *
 * Exactly RFC 3339 §5.6 {@code date-time}: {@code full-date "T" full-time}, i.e. {@code
 * YYYY-MM-DDThh:mm:ss[.fraction](Z|+hh:mm|-hh:mm)}.
 *
 * <ul>
 *   <li>Seconds are required; {@code 18:00Z} is refused.
 *   <li>An offset is required: {@code Z}, or {@code +hh:mm}/{@code -hh:mm} with hours 00–23 and
 *       minutes 00–59 (so offsets beyond ±18:00, which {@code java.time} cannot hold, are still
 *       read). {@code -00:00} (RFC 3339 §4.3, "UTC, local offset unknown") is read as UTC.
 *   <li>{@code T} and {@code Z} may be lower case ({@code t}, {@code z}): RFC 3339 §5.6 allows it
 *       explicitly. A space instead of {@code T} is refused: RFC 3339 mentions it only as an
 *       application's choice, outside the grammar.
 *   <li>A fraction of 1 to 9 digits is read; more than 9 digits (below a nanosecond) is refused
 *       rather than silently rounded.
 *   <li>A leap second ({@code :60}) is refused: {@code java.time} cannot hold it, and folding it
 *       into {@code :59} would move the request in time. A sender whose clock reads {@code :60}
 *       sends again a second later.
 *   <li>Dates are checked against the calendar (no {@code 02-30}); years are 0000–9999 after
 *       conversion to UTC.
 * </ul>
 *
 * <p>Absent, empty or malformed text is {@code missing_request_timestamp}: the spec has no separate
 * id for a malformed timestamp, and an unreadable timestamp gives the receiver no time at all. The
 * reason says absent, empty or malformed, and why.
 *
 * <h2>Written text</h2>
 *
 * Always UTC with {@code Z}, always with seconds, with the fraction only when it is not zero and
 * without trailing zeros: {@code 2026-06-12T18:00:00Z}, {@code 2026-06-12T18:00:00.5Z}. {@link
 * #now(Clock)} is truncated to whole seconds.
 *
 * <h2>Freshness</h2>
 *
 * {@link #checkFreshness(Clock, Duration)} compares with an injected clock: a timestamp more than
 * the tolerance (default {@link #DEFAULT_TOLERANCE}, ±300 s) before the clock is stale, more than
 * the tolerance after it is from the future; both are {@code stale_request_timestamp}, told apart
 * by the reason. Exactly the tolerance away is accepted.
 *
 * @param instant the moment
 */
public record RequestTimestamp(Instant instant) {

  /** The default tolerance: a timestamp within ±300 s of the receiver's clock is fresh. */
  public static final Duration DEFAULT_TOLERANCE = Duration.ofSeconds(300);

  private static final Instant MIN = LocalDate.of(0, 1, 1).atStartOfDay().toInstant(ZoneOffset.UTC);
  private static final Instant MAX =
      LocalDate.of(9999, 12, 31).atTime(LocalTime.MAX).toInstant(ZoneOffset.UTC);

  // The accepted form as a pattern: scan reads it by hand, and RequestTimestampTest holds the two
  // to each other.
  static final Pattern DATE_TIME =
      Pattern.compile(
          "([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})"
              + "(?:\\.([0-9]+))?(?:([Zz])|([+-])([0-9]{2}):([0-9]{2}))");

  private static final String DATE = "[0-9]{4}-[0-9]{2}-[0-9]{2}";
  private static final Pattern SPACE_SEPARATOR = Pattern.compile(DATE + " [0-9]{2}:.*");
  private static final Pattern NO_SECONDS =
      Pattern.compile(DATE + "[Tt][0-9]{2}:[0-9]{2}(?:[Zz+-].*)?");
  private static final Pattern NO_OFFSET =
      Pattern.compile(DATE + "[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]*)?");
  private static final Pattern BAD_OFFSET =
      Pattern.compile(DATE + "[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(?:\\.[0-9]+)?[+-].*");

  // The written form; format writes it by hand for four-digit years, held to this by the test.
  static final DateTimeFormatter FORMAT =
      new DateTimeFormatterBuilder()
          .appendPattern("uuuu-MM-dd'T'HH:mm:ss")
          .appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true)
          .appendLiteral('Z')
          .toFormatter(Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  public RequestTimestamp {
    Objects.requireNonNull(instant, "instant");
    if (instant.isBefore(MIN) || instant.isAfter(MAX)) {
      throw new IllegalArgumentException("outside the years 0000 to 9999 (UTC)");
    }
  }

  /** The clock's current time, truncated to whole seconds. */
  public static RequestTimestamp now(Clock clock) {
    return new RequestTimestamp(clock.instant().truncatedTo(ChronoUnit.SECONDS));
  }

  /** Reads RFC 3339 text as described above; a refusal is an {@link IllegalArgumentException}. */
  public static RequestTimestamp of(String text) {
    Read read = read(text);
    if (read.defect != null) {
      throw new IllegalArgumentException("not an RFC 3339 date-time: " + read.defect);
    }
    return new RequestTimestamp(read.instant);
  }

  /** Parses the header text; {@code raw} is empty when the header is absent. */
  public static Parsed<RequestTimestamp> parse(Optional<String> raw) {
    return HeaderText.required(
        raw,
        ProtocolErrorId.MISSING_REQUEST_TIMESTAMP,
        JarvisHeaders.REQUEST_TIMESTAMP,
        value -> {
          Read read = read(value);
          return read.defect == null
              ? Parsed.accepted(new RequestTimestamp(read.instant))
              : Parsed.refused(
                  HeaderText.malformed(
                      ProtocolErrorId.MISSING_REQUEST_TIMESTAMP,
                      JarvisHeaders.REQUEST_TIMESTAMP,
                      read.defect));
        });
  }

  /** RFC 3339 text in UTC, with seconds, e.g. {@code 2026-06-12T18:00:00Z}. */
  public static String format(Instant instant) {
    LocalDateTime utc = LocalDateTime.ofEpochSecond(instant.getEpochSecond(), 0, ZoneOffset.UTC);
    int year = utc.getYear();
    if (year < 0 || year > 9999) {
      return FORMAT.format(instant); // beyond four digits: the formatter's sign and width
    }
    // Written by hand: it runs several times per accepted mutation, and DateTimeFormatter costs
    // more than the rest of the text work. RequestTimestampTest holds it to FORMAT.
    StringBuilder out = new StringBuilder(30);
    digits(out, year, 4).append('-');
    digits(out, utc.getMonthValue(), 2).append('-');
    digits(out, utc.getDayOfMonth(), 2).append('T');
    digits(out, utc.getHour(), 2).append(':');
    digits(out, utc.getMinute(), 2).append(':');
    digits(out, utc.getSecond(), 2);
    int nanos = instant.getNano();
    if (nanos != 0) {
      int width = 9;
      while (nanos % 10 == 0) {
        nanos /= 10;
        width--;
      }
      digits(out.append('.'), nanos, width);
    }
    return out.append('Z').toString();
  }

  /** {@code value} in exactly {@code width} decimal digits, zero-padded. */
  private static StringBuilder digits(StringBuilder out, int value, int width) {
    for (int scale = pow10(width - 1); scale > 0; scale /= 10) {
      out.append((char) ('0' + (value / scale) % 10));
    }
    return out;
  }

  private static int pow10(int n) {
    int p = 1;
    for (int i = 0; i < n; i++) {
      p *= 10;
    }
    return p;
  }

  /** The header text, e.g. {@code 2026-06-12T18:00:00Z}. */
  public String headerValue() {
    return format(instant);
  }

  /** {@link #checkFreshness(Clock, Duration)} with the {@link #DEFAULT_TOLERANCE}. */
  public Optional<ProtocolViolation> checkFreshness(Clock clock) {
    return checkFreshness(clock, DEFAULT_TOLERANCE);
  }

  /**
   * A {@code stale_request_timestamp} violation if this timestamp is more than {@code tolerance}
   * before (stale) or after (from the future) {@code clock}'s current time.
   */
  public Optional<ProtocolViolation> checkFreshness(Clock clock, Duration tolerance) {
    if (tolerance.isNegative()) {
      throw new IllegalArgumentException("the tolerance must not be negative");
    }
    Instant now = clock.instant();
    Duration ahead = Duration.between(now, instant);
    if (ahead.compareTo(tolerance) > 0) {
      return Optional.of(stale("is from the future", ahead, "after", now, tolerance));
    }
    Duration behind = ahead.negated();
    if (behind.compareTo(tolerance) > 0) {
      return Optional.of(stale("is stale", behind, "before", now, tolerance));
    }
    return Optional.empty();
  }

  private ProtocolViolation stale(
      String verdict, Duration offBy, String direction, Instant now, Duration tolerance) {
    return ProtocolViolation.header(
        ProtocolErrorId.STALE_REQUEST_TIMESTAMP,
        JarvisHeaders.REQUEST_TIMESTAMP,
        JarvisHeaders.REQUEST_TIMESTAMP
            + " "
            + verdict
            + ": "
            + headerValue()
            + " is "
            + seconds(offBy)
            + " s "
            + direction
            + " the receiver's clock ("
            + format(now)
            + "), beyond the tolerance of "
            + seconds(tolerance)
            + " s.");
  }

  private static String seconds(Duration d) {
    return BigDecimal.valueOf(d.getSeconds())
        .add(BigDecimal.valueOf(d.getNano(), 9))
        .stripTrailingZeros()
        .toPlainString();
  }

  /** The outcome of reading text: an instant, or what is wrong. */
  private record Read(Instant instant, String defect) {}

  private static Read defect(String why) {
    return new Read(null, why);
  }

  /**
   * The fields of text of the form {@link #DATE_TIME} matches, read by hand: every request carries
   * a timestamp, and every event one more, so a matcher per read costs more than the rest of it.
   * Null when the text has another form; {@code RequestTimestampTest} holds it to the pattern.
   */
  record Fields(
      int year,
      int month,
      int day,
      int hour,
      int minute,
      int second,
      String fraction,
      boolean utc,
      boolean negative,
      int offsetHours,
      int offsetMinutes) {}

  static Fields scan(String text) {
    int n = text.length();
    if (n < 20
        || !digitsAt(text, 0, 4)
        || text.charAt(4) != '-'
        || !digitsAt(text, 5, 2)
        || text.charAt(7) != '-'
        || !digitsAt(text, 8, 2)
        || (text.charAt(10) != 'T' && text.charAt(10) != 't')
        || !digitsAt(text, 11, 2)
        || text.charAt(13) != ':'
        || !digitsAt(text, 14, 2)
        || text.charAt(16) != ':'
        || !digitsAt(text, 17, 2)) {
      return null;
    }
    int at = 19;
    String fraction = null;
    if (text.charAt(at) == '.') {
      int start = ++at;
      while (at < n && isDigit(text.charAt(at))) {
        at++;
      }
      if (at == start) {
        return null;
      }
      fraction = text.substring(start, at);
    }
    boolean zulu = at == n - 1 && (text.charAt(at) == 'Z' || text.charAt(at) == 'z');
    if (!zulu
        && (at != n - 6
            || (text.charAt(at) != '+' && text.charAt(at) != '-')
            || !digitsAt(text, at + 1, 2)
            || text.charAt(at + 3) != ':'
            || !digitsAt(text, at + 4, 2))) {
      return null;
    }
    return new Fields(
        number(text, 0, 4),
        number(text, 5, 2),
        number(text, 8, 2),
        number(text, 11, 2),
        number(text, 14, 2),
        number(text, 17, 2),
        fraction,
        zulu,
        !zulu && text.charAt(at) == '-',
        zulu ? 0 : number(text, at + 1, 2),
        zulu ? 0 : number(text, at + 4, 2));
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static boolean digitsAt(String text, int from, int count) {
    for (int i = from; i < from + count; i++) {
      if (!isDigit(text.charAt(i))) {
        return false;
      }
    }
    return true;
  }

  private static int number(String text, int from, int count) {
    int value = 0;
    for (int i = from; i < from + count; i++) {
      value = value * 10 + (text.charAt(i) - '0');
    }
    return value;
  }

  private static Read read(String text) {
    Fields m = scan(text);
    if (m == null) {
      return defect(diagnose(text));
    }
    int hour = m.hour();
    int minute = m.minute();
    int second = m.second();
    String fraction = m.fraction();
    if (fraction != null && fraction.length() > 9) {
      return defect("it has more than 9 fractional digits");
    }
    if (hour > 23 || minute > 59) {
      return defect("its time of day is out of range");
    }
    if (second == 60) {
      return defect("it is a leap second (:60), which is not accepted");
    }
    if (second > 59) {
      return defect("its seconds are out of range");
    }
    int offsetSeconds = 0;
    if (!m.utc()) {
      int offsetHours = m.offsetHours();
      int offsetMinutes = m.offsetMinutes();
      if (offsetHours > 23 || offsetMinutes > 59) {
        return defect("its UTC offset is out of range");
      }
      offsetSeconds = (m.negative() ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60);
    }
    LocalDate date;
    try {
      date = LocalDate.of(m.year(), m.month(), m.day());
    } catch (DateTimeException e) {
      return defect("its date is not a calendar date");
    }
    int nanos = fraction == null ? 0 : Integer.parseInt((fraction + "00000000").substring(0, 9));
    Instant instant =
        LocalDateTime.of(date, LocalTime.of(hour, minute, second, nanos))
            .toInstant(ZoneOffset.UTC)
            .minusSeconds(offsetSeconds);
    if (instant.isBefore(MIN) || instant.isAfter(MAX)) {
      return defect("it lies outside the years 0000 to 9999 in UTC");
    }
    return new Read(instant, null);
  }

  private static String diagnose(String text) {
    if (SPACE_SEPARATOR.matcher(text).matches()) {
      return "it separates date and time with a space instead of 'T'";
    }
    if (NO_SECONDS.matcher(text).matches()) {
      return "it has no seconds";
    }
    if (NO_OFFSET.matcher(text).matches()) {
      return "it has no UTC offset";
    }
    if (BAD_OFFSET.matcher(text).matches()) {
      return "its UTC offset is not of the form +hh:mm or -hh:mm";
    }
    return "it is not an RFC 3339 date-time such as 2026-06-12T18:00:00Z";
  }
}
