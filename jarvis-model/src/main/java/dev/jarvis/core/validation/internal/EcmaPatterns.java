package dev.jarvis.core.validation.internal;

import java.util.regex.Pattern;

/**
 * The spec's ECMA-262 {@code pattern}s as java.util.regex patterns. The one difference the spec's
 * patterns meet: Java's {@code $} also matches before a final line terminator, ECMA-262's only at
 * the end of the text, so {@code "id\n"} would pass as a JarvisId. Every {@code $} anchor outside a
 * character class or quotation becomes {@code \z}, as the interpretive validator did.
 */
final class EcmaPatterns {

  private EcmaPatterns() {}

  static Pattern compile(String ecmaRegex) {
    return Pattern.compile(withEndAnchors(ecmaRegex));
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
