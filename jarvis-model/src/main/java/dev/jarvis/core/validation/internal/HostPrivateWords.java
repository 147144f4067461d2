package dev.jarvis.core.validation.internal;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The words that mark a name as host-private ({@code password}, {@code token}, {@code database}…),
 * read from the spec: they are the alternatives of the negative lookahead that opens the {@code
 * propertyNames} pattern of {@code NamespacedExtensions}.
 */
final class HostPrivateWords {

  static final String EXTENSIONS_SCHEMA = "NamespacedExtensions";

  /** {@code ^(?!.*(a|b|c))…}: captures {@code a|b|c}. */
  private static final Pattern LOOKAHEAD =
      Pattern.compile("^\\^\\(\\?!\\.\\*\\(([a-z0-9_|]+)\\)\\)");

  private final List<String> words;

  private HostPrivateWords(List<String> words) {
    this.words = words;
  }

  static HostPrivateWords fromSpec(SpecTree spec) {
    String pattern =
        spec.schema(EXTENSIONS_SCHEMA).path("propertyNames").path("pattern").asText("");
    Matcher m = LOOKAHEAD.matcher(pattern);
    if (!m.find()) {
      throw new IllegalStateException(
          "no host-private word list in " + EXTENSIONS_SCHEMA + ".propertyNames.pattern");
    }
    return new HostPrivateWords(List.of(m.group(1).split("\\|")));
  }

  List<String> words() {
    return words;
  }

  /**
   * The first host-private word the name contains. Unlike the spec's pattern this ignores case:
   * {@code API_KEY} names host-private data as much as {@code api_key} does.
   */
  Optional<String> foundIn(String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    for (String word : words) {
      if (lower.contains(word)) {
        return Optional.of(word);
      }
    }
    return Optional.empty();
  }
}
