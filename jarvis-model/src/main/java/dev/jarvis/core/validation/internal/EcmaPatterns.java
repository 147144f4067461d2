package dev.jarvis.core.validation.internal;

import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * The spec's ECMA-262 {@code pattern}s as java.util.regex patterns. The one difference the spec's
 * patterns meet: Java's {@code $} also matches before a final line terminator, ECMA-262's only at
 * the end of the text, so {@code "id\n"} would pass as a JarvisId. Every {@code $} anchor outside a
 * character class or quotation becomes {@code \z}, as the interpretive validator did.
 *
 * <p>The identifier pattern every JarvisId is checked against, {@code
 * ^[A-Za-z0-9][A-Za-z0-9._:-]*$}, is a first character from one ASCII set and the rest from
 * another: such patterns are matched by two lookup tables instead of the regex engine ({@link
 * #asciiRun}); they answer exactly as the regex does, since both sets hold ASCII characters only.
 */
final class EcmaPatterns {

  private EcmaPatterns() {}

  /** A test that the text holds a match of the pattern, as JSON Schema's {@code pattern} asks. */
  static Predicate<String> compile(String ecmaRegex) {
    Optional<Predicate<String>> run = asciiRun(ecmaRegex);
    if (run.isPresent()) {
      return run.get();
    }
    Pattern pattern = Pattern.compile(withEndAnchors(ecmaRegex));
    return text -> {
      try {
        return pattern.matcher(text).find();
      } catch (StackOverflowError tooLongToJudge) {
        // java.util.regex recurses once per repetition of a group; text too long for the engine
        // to judge is refused as not matching, which no shorter text is.
        return false;
      }
    };
  }

  /**
   * {@code ^[first][rest]*$} with both classes made of ASCII characters and ranges: a test by
   * table; empty for any other pattern.
   */
  static Optional<Predicate<String>> asciiRun(String regex) {
    if (!regex.startsWith("^[") || !regex.endsWith("]*$")) {
      return Optional.empty();
    }
    int close = regex.indexOf(']', 2);
    if (close < 0 || close + 1 >= regex.length() || regex.charAt(close + 1) != '[') {
      return Optional.empty();
    }
    Optional<boolean[]> first = asciiClass(regex.substring(2, close));
    Optional<boolean[]> rest = asciiClass(regex.substring(close + 2, regex.length() - 3));
    if (first.isEmpty() || rest.isEmpty()) {
      return Optional.empty();
    }
    boolean[] head = first.get();
    boolean[] tail = rest.get();
    return Optional.of(
        text -> {
          if (text.isEmpty() || !in(head, text.charAt(0))) {
            return false;
          }
          for (int i = 1; i < text.length(); i++) {
            if (!in(tail, text.charAt(i))) {
              return false;
            }
          }
          return true;
        });
  }

  private static boolean in(boolean[] set, char c) {
    return c < set.length && set[c];
  }

  /** The members of a class body such as {@code A-Za-z0-9._:-}; empty if it is anything else. */
  private static Optional<boolean[]> asciiClass(String body) {
    if (body.isEmpty() || body.startsWith("^")) {
      return Optional.empty();
    }
    boolean[] set = new boolean[128];
    for (int i = 0; i < body.length(); i++) {
      char c = body.charAt(i);
      if (c >= 128 || c == '\\' || c == '[' || c == ']' || c == '&') {
        return Optional.empty();
      }
      boolean range = c != '-' && i + 2 < body.length() && body.charAt(i + 1) == '-';
      if (range) {
        char to = body.charAt(i + 2);
        if (to >= 128 || to < c || to == '\\' || to == '[' || to == ']') {
          return Optional.empty();
        }
        for (char m = c; m <= to; m++) {
          set[m] = true;
        }
        i += 2;
      } else if (c == '-' && i != 0 && i != body.length() - 1) {
        return Optional.empty();
      } else {
        set[c] = true;
      }
    }
    return Optional.of(set);
  }

  static String withEndAnchors(String regex) {
    if (regex.indexOf('$') < 0) {
      return regex;
    }
    StringBuilder out = new StringBuilder(regex.length() + 4);
    boolean quoted = false;
    int classDepth = 0;
    for (int i = 0; i < regex.length(); i++) {
      char c = regex.charAt(i);
      if (quoted) {
        if (c == '\\' && i + 1 < regex.length() && regex.charAt(i + 1) == 'E') {
          out.append("\\E");
          i++;
          quoted = false;
        } else {
          out.append(c);
        }
      } else if (c == '\\' && i + 1 < regex.length()) {
        char next = regex.charAt(++i);
        out.append(c).append(next);
        quoted = next == 'Q';
      } else if (c == '[') {
        classDepth++;
        out.append(c);
      } else if (c == ']' && classDepth > 0) {
        classDepth--;
        out.append(c);
      } else if (c == '$' && classDepth == 0) {
        out.append("\\z");
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
