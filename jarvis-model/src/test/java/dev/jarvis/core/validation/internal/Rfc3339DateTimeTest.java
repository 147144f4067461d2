package dev.jarvis.core.validation.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class Rfc3339DateTimeTest {

  @ParameterizedTest(name = "{0} is an RFC 3339 date-time")
  @ValueSource(
      strings = {
        "2026-06-12T18:00:00Z",
        "2026-06-12t18:00:00z",
        "2026-06-12T18:00:00.5Z",
        "2026-06-12T18:00:00.123456789+02:00",
        "2026-06-12T18:00:00-00:00",
        "2026-06-12T00:00:00+23:59",
        "2028-02-29T12:00:00Z",
        "2016-12-31T23:59:60Z",
        "2015-06-30T23:59:60Z",
        "2016-12-31T15:59:60-08:00",
        "2017-01-01T00:59:60+01:00"
      })
  void valid(String value) {
    assertTrue(Rfc3339DateTime.isValid(value));
  }

  @ParameterizedTest(name = "{0} is not an RFC 3339 date-time")
  @ValueSource(
      strings = {
        "2026-13-12T18:00:00Z",
        "2026-00-12T18:00:00Z",
        "2026-02-30T18:00:00Z",
        "2027-02-29T18:00:00Z",
        "2026-06-12T24:00:00Z",
        "2026-06-12T18:60:00Z",
        "2026-06-12T18:00:61Z",
        "2026-06-12T18:00:00",
        "2026-06-12 18:00:00Z",
        "2026-06-12T18:00:00+0200",
        "2026-06-12T18:00:00+24:00",
        "2026-06-12T18:00:00+02:60",
        "2026-06-12T18:00Z",
        "2026-06-12T18:00:00.Z",
        "2026-06-12",
        "26-06-12T18:00:00Z",
        "2026-06-12T18:00:00Z\n",
        " 2026-06-12T18:00:00Z",
        "2026-06-12T23:59:60Z",
        "2016-12-31T23:58:60Z",
        "2016-12-31T22:59:60Z",
        "2026-06-12T18:00:00\u0662Z"
      })
  void invalid(String value) {
    assertFalse(Rfc3339DateTime.isValid(value));
  }
}
