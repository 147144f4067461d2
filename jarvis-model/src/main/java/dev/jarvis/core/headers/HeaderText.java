package dev.jarvis.core.headers;

import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.model.ProtocolErrorId;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Shared rules for header text. Reasons name the header and the rule broken; they never echo text
 * that failed validation, which could be anything, including data that must not be logged.
 */
final class HeaderText {

  private HeaderText() {}

  /** Reads a header through the caller's lookup. */
  static Optional<String> get(Function<String, Optional<String>> lookup, String name) {
    return Objects.requireNonNull(lookup.apply(name), "the header lookup returned null");
  }

  /** Strips optional whitespace (SP, HTAB) around a field value, as RFC 9110 §5.5 does. */
  static String trim(String raw) {
    int start = 0;
    int end = raw.length();
    while (start < end && isOws(raw.charAt(start))) {
      start++;
    }
    while (end > start && isOws(raw.charAt(end - 1))) {
      end--;
    }
    return raw.substring(start, end);
  }

  private static boolean isOws(char c) {
    return c == ' ' || c == '\t';
  }

  /** Whether every character is visible US-ASCII, space or tab: no control characters. */
  static boolean isFieldText(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (!(c >= 0x21 && c <= 0x7E) && !isOws(c)) {
        return false;
      }
    }
    return true;
  }

  /** The defect of text that must travel as a header value, if any. */
  static Optional<String> fieldTextDefect(String value) {
    return isFieldText(value) && trim(value).equals(value) && !value.isEmpty()
        ? Optional.empty()
        : Optional.of(
            value.isEmpty()
                ? "empty"
                : "not visible US-ASCII without surrounding whitespace or control characters");
  }

  static ProtocolViolation absent(ProtocolErrorId id, String header) {
    return ProtocolViolation.header(id, header, header + " is absent.");
  }

  static ProtocolViolation empty(ProtocolErrorId id, String header) {
    return ProtocolViolation.header(id, header, header + " is empty.");
  }

  static ProtocolViolation malformed(ProtocolErrorId id, String header, String why) {
    return ProtocolViolation.header(id, header, header + " is malformed: " + why + ".");
  }

  /**
   * A required single-valued header: absent and empty (after trimming) are refused with {@code id};
   * anything else goes to {@code present}.
   */
  static <T> Parsed<T> required(
      Optional<String> raw,
      ProtocolErrorId id,
      String header,
      Function<String, Parsed<T>> present) {
    if (raw.isEmpty()) {
      return Parsed.refused(absent(id, header));
    }
    String value = trim(raw.get());
    if (value.isEmpty()) {
      return Parsed.refused(empty(id, header));
    }
    return present.apply(value);
  }

  /** What is wrong with one list entry, if anything. */
  @FunctionalInterface
  interface EntryRule {
    Optional<String> defect(String entry);
  }

  /**
   * An optional comma-separated list header (RFC 9110 §5.6.1), entries trimmed: absent is an empty
   * result; present but empty, an empty entry, or an entry breaking {@code rule} is refused with
   * {@code id}, one violation per bad entry. Repeated entries count once, first position kept.
   */
  static Parsed<Optional<Set<String>>> list(
      Optional<String> raw, ProtocolErrorId id, String header, EntryRule rule) {
    if (raw.isEmpty()) {
      return Parsed.accepted(Optional.empty());
    }
    String value = trim(raw.get());
    if (value.isEmpty()) {
      return Parsed.refused(
          ProtocolViolation.header(id, header, header + " is present but empty."));
    }
    List<ProtocolViolation> violations = new ArrayList<>();
    Set<String> entries = new LinkedHashSet<>();
    String[] parts = value.split(",", -1);
    for (int i = 0; i < parts.length; i++) {
      String entry = trim(parts[i]);
      int position = i + 1;
      if (entry.isEmpty()) {
        violations.add(
            ProtocolViolation.header(
                id, header, header + " has an empty entry at position " + position + "."));
        continue;
      }
      Optional<String> defect = rule.defect(entry);
      if (defect.isPresent()) {
        violations.add(
            ProtocolViolation.header(
                id,
                header,
                header + " entry " + position + " is malformed: " + defect.get() + "."));
      } else {
        entries.add(entry);
      }
    }
    return violations.isEmpty()
        ? Parsed.accepted(Optional.of(entries))
        : Parsed.refused(violations);
  }

  /** Adds a parse's violations to {@code out}; its value, or null if refused. */
  static <T> T collect(Parsed<T> parsed, List<ProtocolViolation> out) {
    out.addAll(parsed.violations());
    return parsed.value().orElse(null);
  }
}
