package dev.jarvis.core.headers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.model.ProtocolErrorId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class RequestTimestampTest {

  private static final Instant NOW = Instant.parse("2026-06-12T18:00:00Z");
  private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

  @ParameterizedTest(name = "{0} is read as {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "2026-06-12T18:00:00Z          | 2026-06-12T18:00:00Z",
        "2026-06-12t18:00:00z          | 2026-06-12T18:00:00Z",
        "2026-06-12T20:00:00+02:00     | 2026-06-12T18:00:00Z",
        "2026-06-12T13:30:00-04:30     | 2026-06-12T18:00:00Z",
        "2026-06-12T18:00:00-00:00     | 2026-06-12T18:00:00Z",
        "2026-06-13T17:59:00+23:59     | 2026-06-12T18:00:00Z",
        "2026-06-12T18:00:00.5Z        | 2026-06-12T18:00:00.5Z",
        "2026-06-12T18:00:00.500Z      | 2026-06-12T18:00:00.5Z",
        "2026-06-12T18:00:00.000Z      | 2026-06-12T18:00:00Z",
        "2026-06-12T18:00:00.123456789Z | 2026-06-12T18:00:00.123456789Z",
        "2024-02-29T00:00:00Z          | 2024-02-29T00:00:00Z",
      })
  void strictRfc3339DateTimesAreAccepted(String text, String expected) {
    assertEquals(expected, RequestTimestamp.of(text).headerValue());
    assertTrue(RequestTimestamp.parse(Optional.of(text)).isAccepted());
  }

  @ParameterizedTest(name = "{0} is malformed: {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "2026-06-12T18:00Z              | no seconds",
        "2026-06-12T18:00:00            | no UTC offset",
        "2026-06-12T18:00:00.5          | no UTC offset",
        "2026-06-12 18:00:00Z           | space instead of 'T'",
        "2026-06-12T18:00:00+0200       | +hh:mm",
        "2026-06-12T18:00:00+02         | +hh:mm",
        "2026-06-12T18:00:00.Z          | not an RFC 3339 date-time",
        "2026-06-12T18:00:00,5Z         | not an RFC 3339 date-time",
        "2026-06-12T18:00:00.1234567891Z | more than 9 fractional digits",
        "2026-12-31T23:59:60Z           | leap second",
        "2026-06-12T24:00:00Z           | time of day is out of range",
        "2026-06-12T18:60:00Z           | time of day is out of range",
        "2026-06-12T18:00:61Z           | seconds are out of range",
        "2026-06-12T18:00:00+24:00      | offset is out of range",
        "2026-02-30T18:00:00Z           | not a calendar date",
        "2026-13-01T18:00:00Z           | not a calendar date",
        "0000-01-01T00:00:00+01:00      | outside the years 0000 to 9999",
        "20260612T180000Z               | not an RFC 3339 date-time",
        "1781287200                     | not an RFC 3339 date-time",
        "Fri, 12 Jun 2026 18:00:00 GMT  | not an RFC 3339 date-time",
        "２０２６-06-12T18:00:00Z          | not an RFC 3339 date-time",
      })
  void malformedTimestampsAreMissingRequestTimestampWithAReasonThatSaysWhy(
      String text, String why) {
    Parsed<RequestTimestamp> parsed = RequestTimestamp.parse(Optional.of(text));
    ProtocolViolation v = parsed.violation().orElseThrow();
    assertEquals(ProtocolErrorId.MISSING_REQUEST_TIMESTAMP, v.errorId());
    assertEquals("header", v.objectType());
    assertEquals(JarvisHeaders.REQUEST_TIMESTAMP, v.field());
    assertTrue(v.reason().contains("is malformed"), v.reason());
    assertTrue(v.reason().contains(why), v.reason());
    assertFalse(v.reason().contains(text), "the reason echoes the refused text: " + v.reason());
    assertThrows(IllegalArgumentException.class, () -> RequestTimestamp.of(text));
  }

  @ParameterizedTest(name = "{0} is written as {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '"',
      value = {
        "2026-06-12T18:00:00Z           | 2026-06-12T18:00:00Z",
        "2026-06-12T18:00:00.100Z       | 2026-06-12T18:00:00.1Z",
        "2026-06-12T18:00:00.000000001Z | 2026-06-12T18:00:00.000000001Z",
        "0001-01-01T00:00:00Z           | 0001-01-01T00:00:00Z",
      })
  void writtenTimestampsAreUtcWithSecondsAndNoZeroFraction(String instant, String expected) {
    assertEquals(expected, RequestTimestamp.format(Instant.parse(instant)));
  }

  @Test
  void aWholeMinuteIsWrittenWithItsSeconds() {
    String written = new RequestTimestamp(NOW).headerValue();
    assertEquals("2026-06-12T18:00:00Z", written);
    assertTrue(written.endsWith("18:00:00Z"), written);
  }

  @Test
  void nowReadsTheInjectedClockInWholeSeconds() {
    Clock clock = Clock.fixed(Instant.parse("2026-06-12T18:00:07.987Z"), ZoneOffset.UTC);
    assertEquals("2026-06-12T18:00:07Z", RequestTimestamp.now(clock).headerValue());
  }

  static Stream<Arguments> freshness() {
    return Stream.of(
        Arguments.of("exactly the tolerance in the past", NOW.minusSeconds(300), "accepted"),
        Arguments.of("exactly the tolerance in the future", NOW.plusSeconds(300), "accepted"),
        Arguments.of("the receiver's own time", NOW, "accepted"),
        Arguments.of("one second beyond the past edge", NOW.minusSeconds(301), "is stale"),
        Arguments.of(
            "one nanosecond beyond the past edge", NOW.minusSeconds(300).minusNanos(1), "is stale"),
        Arguments.of("a day old", NOW.minus(Duration.ofDays(1)), "is stale"),
        Arguments.of(
            "one second beyond the future edge", NOW.plusSeconds(301), "is from the future"),
        Arguments.of(
            "one nanosecond beyond the future edge",
            NOW.plusSeconds(300).plusNanos(1),
            "is from the future"));
  }

  @ParameterizedTest(name = "a timestamp {0} is {2}")
  @MethodSource("freshness")
  void freshnessIsCheckedAgainstTheInjectedClockWithinTheTolerance(
      String sentence, Instant sent, String verdict) {
    Optional<ProtocolViolation> v = new RequestTimestamp(sent).checkFreshness(CLOCK);
    if (verdict.equals("accepted")) {
      assertEquals(Optional.empty(), v, sentence);
      return;
    }
    assertEquals(ProtocolErrorId.STALE_REQUEST_TIMESTAMP, v.orElseThrow().errorId());
    assertEquals(JarvisHeaders.REQUEST_TIMESTAMP, v.orElseThrow().field());
    assertTrue(v.orElseThrow().reason().contains(verdict), v.orElseThrow().reason());
  }

  @Test
  void staleAndFutureReasonsSayHowFarOffAndTheTolerance() {
    assertEquals(
        "Jarvis-Request-Timestamp is stale: 2026-06-12T17:54:59Z is 301 s before the receiver's"
            + " clock (2026-06-12T18:00:00Z), beyond the tolerance of 300 s.",
        new RequestTimestamp(NOW.minusSeconds(301)).checkFreshness(CLOCK).orElseThrow().reason());
    assertEquals(
        "Jarvis-Request-Timestamp is from the future: 2026-06-12T18:00:30.5Z is 30.5 s after the"
            + " receiver's clock (2026-06-12T18:00:00Z), beyond the tolerance of 30 s.",
        new RequestTimestamp(NOW.plusMillis(30_500))
            .checkFreshness(CLOCK, Duration.ofSeconds(30))
            .orElseThrow()
            .reason());
  }

  @Test
  void aZeroToleranceAcceptsOnlyTheClocksOwnInstant() {
    assertEquals(Optional.empty(), new RequestTimestamp(NOW).checkFreshness(CLOCK, Duration.ZERO));
    assertTrue(
        new RequestTimestamp(NOW.plusNanos(1)).checkFreshness(CLOCK, Duration.ZERO).isPresent());
    assertThrows(
        IllegalArgumentException.class,
        () -> new RequestTimestamp(NOW).checkFreshness(CLOCK, Duration.ofSeconds(-1)));
  }

  @ParameterizedTest(name = "{0} is written as the formatter writes it")
  @MethodSource("instants")
  void theHandWrittenFormatWritesWhatTheFormatterWrites(Instant instant) {
    assertEquals(RequestTimestamp.FORMAT.format(instant), RequestTimestamp.format(instant));
  }

  static Stream<Instant> instants() {
    java.util.Random random = new java.util.Random(25);
    Stream<Instant> edges =
        Stream.of(
            Instant.EPOCH,
            Instant.parse("0000-01-01T00:00:00Z"),
            Instant.parse("9999-12-31T23:59:59.999999999Z"),
            Instant.parse("+10000-01-01T00:00:00Z"),
            Instant.parse("-0001-12-31T23:59:59Z"),
            NOW.plusNanos(1),
            NOW.plusNanos(10),
            NOW.plusNanos(120_000_000),
            NOW.plusNanos(100_000_000),
            NOW.plusNanos(999_999_999));
    Stream<Instant> drawn =
        Stream.generate(
                () ->
                    Instant.ofEpochSecond(
                        random.nextLong() % 253_402_300_799L,
                        random.nextBoolean() ? 0 : random.nextInt(1_000_000_000)))
            .limit(200);
    return Stream.concat(edges, drawn);
  }

  @ParameterizedTest(name = "\"{0}\" is read by hand exactly where the pattern matches it")
  @MethodSource("texts")
  void theHandWrittenScanReadsExactlyWhatThePatternMatches(String text) {
    java.util.regex.Matcher m = RequestTimestamp.DATE_TIME.matcher(text);
    RequestTimestamp.Fields fields = RequestTimestamp.scan(text);
    assertEquals(m.matches(), fields != null);
    if (fields != null) {
      assertEquals(
          List.of(m.group(1), m.group(2), m.group(3), m.group(4), m.group(5), m.group(6)),
          List.of(
              pad(fields.year(), 4),
              pad(fields.month(), 2),
              pad(fields.day(), 2),
              pad(fields.hour(), 2),
              pad(fields.minute(), 2),
              pad(fields.second(), 2)));
      assertEquals(Optional.ofNullable(m.group(7)), Optional.ofNullable(fields.fraction()));
      assertEquals(m.group(8) != null, fields.utc());
      if (!fields.utc()) {
        assertEquals(m.group(9).equals("-"), fields.negative());
        assertEquals(m.group(10), pad(fields.offsetHours(), 2));
        assertEquals(m.group(11), pad(fields.offsetMinutes(), 2));
      }
    }
  }

  private static String pad(int value, int width) {
    return String.format("%0" + width + "d", value);
  }

  static Stream<String> texts() {
    List<String> seeds =
        List.of(
            "2026-06-12T18:00:00Z",
            "2026-06-12t18:00:00z",
            "2026-06-12T20:00:00+02:00",
            "2026-06-12T13:30:00-04:30",
            "2026-06-12T18:00:00.123456789Z",
            "2026-06-12T18:00:00.1234567891+01:00",
            "2026-06-12T18:00:00.Z",
            "2026-06-12T18:00Z",
            "2026-06-12 18:00:00Z",
            "2026-06-12T18:00:00",
            "2026-06-12T18:00:00+0200",
            "2026-06-12T18:00:00+02:00x",
            "+2026-06-12T18:00:00Z",
            "2026-6-12T18:00:00Z",
            "2026-06-12T18:00:60Z",
            "",
            "Z");
    // Each seed, and each seed with one character changed, dropped or doubled.
    java.util.Random random = new java.util.Random(25);
    String alphabet = "0123456789-:.TtZz+ x\u0661";
    List<String> texts = new java.util.ArrayList<>(seeds);
    for (String seed : seeds) {
      for (int i = 0; i < seed.length(); i++) {
        char c = alphabet.charAt(random.nextInt(alphabet.length()));
        texts.add(seed.substring(0, i) + c + seed.substring(i + 1));
        texts.add(seed.substring(0, i) + seed.substring(i + 1));
        texts.add(seed.substring(0, i + 1) + seed.substring(i));
      }
    }
    return texts.stream();
  }

  @Test
  void theHeaderCodeNeverReadsTheSystemClock() throws IOException {
    Path dir = Path.of("src/main/java/dev/jarvis/core/headers");
    List<String> offenders;
    try (Stream<Path> files = Files.list(dir)) {
      offenders =
          files
              .filter(
                  f -> {
                    try {
                      String s = Files.readString(f);
                      return s.contains("Instant.now(")
                          || s.contains("currentTimeMillis")
                          || s.contains("Clock.system");
                    } catch (IOException e) {
                      throw new java.io.UncheckedIOException(e);
                    }
                  })
              .map(Path::toString)
              .toList();
    }
    assertEquals(List.of(), offenders);
  }
}
