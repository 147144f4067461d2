package dev.jarvis.core.validation.internal;

import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.Month;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code date-time} format as RFC 3339 section 5.6 defines it, asserted strictly.
 *
 * <p>The JSON Schema validator's own check (networknt 2.0.x) also accepts a space between date and
 * time; RFC 3339's grammar requires {@code T}. This one refuses it, checks the calendar (no month
 * 13, no February 30, no hour 24), requires an offset, and allows second 60 only where a leap
 * second can fall: at 23:59 UTC on the last day of June or December.
 */
final class Rfc3339DateTime {

  private static final Pattern DATE_TIME =
      Pattern.compile(
          "(\\d{4})-(\\d{2})-(\\d{2})[Tt](\\d{2}):(\\d{2}):(\\d{2})(?:\\.\\d+)?"
              + "(?:[Zz]|([+-])(\\d{2}):(\\d{2}))");

  private static final int MINUTES_PER_DAY = 24 * 60;

  private Rfc3339DateTime() {}

  static boolean isValid(String value) {
    Matcher m = DATE_TIME.matcher(value);
    if (!m.matches()) {
      return false;
    }
    LocalDate date;
    try {
      date = LocalDate.of(number(m, 1), number(m, 2), number(m, 3));
    } catch (DateTimeException e) {
      return false;
    }
    int hour = number(m, 4);
    int minute = number(m, 5);
    int second = number(m, 6);
    int offset = 0;
    if (m.group(7) != null) {
      int offsetHour = number(m, 8);
      int offsetMinute = number(m, 9);
      if (offsetHour > 23 || offsetMinute > 59) {
        return false;
      }
      offset = (m.group(7).equals("-") ? -1 : 1) * (offsetHour * 60 + offsetMinute);
    }
    if (hour > 23 || minute > 59 || second > 60) {
      return false;
    }
    return second < 60 || isLeapSecondSlot(date, hour * 60 + minute - offset);
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

  private static int number(Matcher m, int group) {
    return Integer.parseInt(m.group(group));
  }
}
