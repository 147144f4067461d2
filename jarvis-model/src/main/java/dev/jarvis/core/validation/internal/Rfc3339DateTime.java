package dev.jarvis.core.validation.internal;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.Month;

/**
 * The {@code date-time} format as RFC 3339 section 5.6 defines it, asserted strictly.
 *
 * <p>The JSON Schema validator's own check (networknt 2.0.x) also accepts a space between date and
 * time; RFC 3339's grammar requires {@code T}. This one refuses it, checks the calendar (no month
 * 13, no February 30, no hour 24), requires an offset, and allows second 60 only where a leap
 * second can fall: at 23:59 UTC on the last day of June or December.
 */
final class Rfc3339DateTime {

  private static final int MINUTES_PER_DAY = 24 * 60;

  private Rfc3339DateTime() {}

  /**
   * Whether the text is {@code yyyy-mm-ddThh:mm:ss[.fraction](Z|±hh:mm)}, each digit ASCII, and a
   * real instant. Read character by character: this runs for every timestamp of every payload.
   */
  static boolean isValid(String value) {
    int n = value.length();
    // yyyy-mm-ddThh:mm:ss is 19 characters, then at least Z.
    if (n < 20
        || value.charAt(4) != '-'
        || value.charAt(7) != '-'
        || (value.charAt(10) != 'T' && value.charAt(10) != 't')
        || value.charAt(13) != ':'
        || value.charAt(16) != ':') {
      return false;
    }
    int year = digits(value, 0, 4);
    int month = digits(value, 5, 2);
    int day = digits(value, 8, 2);
    int hour = digits(value, 11, 2);
    int minute = digits(value, 14, 2);
    int second = digits(value, 17, 2);
    if ((year | month | day | hour | minute | second) < 0) {
      return false;
    }
    int i = 19;
    if (value.charAt(i) == '.') {
      int fraction = ++i;
      while (i < n && isDigit(value.charAt(i))) {
        i++;
      }
      if (i == fraction || i == n) {
        return false;
      }
    }
    int offset = 0;
    char zone = value.charAt(i);
    if (zone == 'Z' || zone == 'z') {
      if (i + 1 != n) {
        return false;
      }
    } else if (zone == '+' || zone == '-') {
      if (i + 6 != n || value.charAt(i + 3) != ':') {
        return false;
      }
      int offsetHour = digits(value, i + 1, 2);
      int offsetMinute = digits(value, i + 4, 2);
      if (offsetHour < 0 || offsetMinute < 0 || offsetHour > 23 || offsetMinute > 59) {
        return false;
      }
      offset = (zone == '-' ? -1 : 1) * (offsetHour * 60 + offsetMinute);
    } else {
      return false;
    }
    LocalDate date;
    try {
      date = LocalDate.of(year, month, day);
    } catch (DateTimeException e) {
      return false;
    }
    if (hour > 23 || minute > 59 || second > 60) {
      return false;
    }
    return second < 60 || isLeapSecondSlot(date, hour * 60 + minute - offset);
  }

  /** The number written by {@code count} ASCII digits at {@code from}; -1 if any is no digit. */
  private static int digits(String text, int from, int count) {
    int value = 0;
    for (int i = from; i < from + count; i++) {
      char c = text.charAt(i);
      if (!isDigit(c)) {
        return -1;
      }
      value = value * 10 + (c - '0');
    }
    return value;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /**
   * Whether local date plus UTC minute-of-day (possibly outside 0..1439) is 23:59 UTC, Jun 30/Dec
   * 31.
   */
  private static boolean isLeapSecondSlot(LocalDate localDate, int utcMinuteOfDay) {
    LocalDate utcDate = localDate.plusDays(Math.floorDiv(utcMinuteOfDay, MINUTES_PER_DAY));
    if (Math.floorMod(utcMinuteOfDay, MINUTES_PER_DAY) != MINUTES_PER_DAY - 1) {
      return false;
    }
    return (utcDate.getMonth() == Month.JUNE && utcDate.getDayOfMonth() == 30)
        || (utcDate.getMonth() == Month.DECEMBER && utcDate.getDayOfMonth() == 31);
  }
}
