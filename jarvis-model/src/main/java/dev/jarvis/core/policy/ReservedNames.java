package dev.jarvis.core.policy;

import java.text.Normalizer;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Names only the host may use (the event types it writes itself), held against look-alikes.
 *
 * <p>A name is reserved when it is one of them exactly, or when it differs from one only by case,
 * whitespace, format characters (Unicode category Cf, such as a zero-width space), compatibility
 * forms (NFKC: full-width letters, ligatures) or a Cyrillic or Greek letter drawn like a Latin one.
 * Such a name would read as the host's in a log; nothing legitimate needs it.
 *
 * <p>The confusables covered are the Cyrillic and Greek letters that render like ASCII letters in
 * common fonts, not the whole of Unicode's confusables table: enough for names written in ASCII,
 * which every reserved name of v0.1 is.
 */
public final class ReservedNames {

  private static final Map<Integer, Character> LOOK_ALIKES = lookAlikes();

  private final Map<String, String> bySkeleton;

  private ReservedNames(Map<String, String> bySkeleton) {
    this.bySkeleton = bySkeleton;
  }

  /** The names in {@code reserved}, each held against its look-alikes. */
  public static ReservedNames of(Collection<String> reserved) {
    Map<String, String> map = new java.util.HashMap<>();
    for (String name : reserved) {
      map.put(skeleton(name), name);
    }
    return new ReservedNames(Map.copyOf(map));
  }

  /** The reserved name that {@code name} is or imitates, if any. */
  public Optional<String> reservedAs(String name) {
    return Optional.ofNullable(bySkeleton.get(skeleton(name)));
  }

  /** The reserved names. */
  public Set<String> names() {
    return Set.copyOf(bySkeleton.values());
  }

  /**
   * What a name looks like to a reader: NFKC, without whitespace and format characters, with
   * look-alike letters replaced by the Latin ones they imitate, in lower case.
   */
  static String skeleton(String name) {
    String normalized = Normalizer.normalize(name, Normalizer.Form.NFKC);
    StringBuilder out = new StringBuilder(normalized.length());
    normalized
        .codePoints()
        .forEach(
            cp -> {
              int type = Character.getType(cp);
              if (type == Character.FORMAT
                  || Character.isWhitespace(cp)
                  || Character.isSpaceChar(cp)
                  || type == Character.CONTROL) {
                return;
              }
              Character latin = LOOK_ALIKES.get(cp);
              if (latin != null) {
                out.append(latin.charValue());
              } else {
                out.appendCodePoint(cp);
              }
            });
    return out.toString().toLowerCase(Locale.ROOT);
  }

  private static Map<Integer, Character> lookAlikes() {
    Map<Integer, Character> map = new java.util.HashMap<>();
    // Cyrillic, lower and upper case.
    put(map, "аеорсухіјѕԁһԛԝ", "aeopcyxijsdhqw");
    put(map, "АВЕКМНОРСТХІЈЅУ", "abekmhopctxijsy");
    // Greek.
    put(map, "αοριντυχκ", "aopivtuxk");
    put(map, "ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "abezhikmnoptyx");
    return Map.copyOf(map);
  }

  private static void put(Map<Integer, Character> map, String from, String to) {
    int[] cps = from.codePoints().toArray();
    for (int i = 0; i < cps.length; i++) {
      map.put(cps[i], to.charAt(i));
    }
  }
}
