package dev.jarvis.core.validation.internal;

import dev.jarvis.core.error.ProtocolViolation;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The stable order of a validation result: by JSON Pointer (segment by segment, array indexes as
 * numbers, so {@code /options/2} comes before {@code /options/10}), then by {@code error_id}; and
 * one violation per pointer and {@code error_id}.
 */
final class ViolationOrder {

  static final Comparator<String> POINTER = ViolationOrder::comparePointers;

  static final Comparator<ProtocolViolation> ORDER =
      Comparator.comparing(ProtocolViolation::field, POINTER)
          .thenComparing(v -> v.errorId().getValue());

  private ViolationOrder() {}

  static List<ProtocolViolation> sortedDistinct(List<ProtocolViolation> violations) {
    List<ProtocolViolation> sorted = new ArrayList<>(violations);
    sorted.sort(ORDER);
    Set<String> seen = new HashSet<>();
    List<ProtocolViolation> out = new ArrayList<>(sorted.size());
    for (ProtocolViolation v : sorted) {
      if (seen.add(v.field() + "\u0000" + v.errorId().getValue())) {
        out.add(v);
      }
    }
    return List.copyOf(out);
  }

  private static int comparePointers(String a, String b) {
    String[] left = a.split("/", -1);
    String[] right = b.split("/", -1);
    for (int i = 0; i < Math.min(left.length, right.length); i++) {
      int c = compareSegments(left[i], right[i]);
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(left.length, right.length);
  }

  private static int compareSegments(String a, String b) {
    if (isIndex(a) && isIndex(b)) {
      int byLength = Integer.compare(a.length(), b.length());
      return byLength != 0 ? byLength : a.compareTo(b);
    }
    return a.compareTo(b);
  }

  private static boolean isIndex(String segment) {
    if (segment.isEmpty() || (segment.length() > 1 && segment.charAt(0) == '0')) {
      return false;
    }
    for (int i = 0; i < segment.length(); i++) {
      if (segment.charAt(i) < '0' || segment.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }
}
