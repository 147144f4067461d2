package dev.jarvis.core.canonical;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.jarvis.core.canonical.CanonicalizationException.Reason;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Strings and names are written in UTF-8 with JSON.stringify's minimal escaping. */
@DisplayName("String text")
class StringsTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private static final String HARD = "\"\\/\u007f\u2028\u2029\ufeff\uffff~";

  @ParameterizedTest(name = "the JSON string {0} is written as {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '`',
      value = {
        "`\"\\\"\"` | `\"\\\"\"`",
        "`\"\\\\\"` | `\"\\\\\"`",
        "`\"\\/\"` | `\"/\"`",
        "`\"\\b\\f\\n\\r\\t\"` | `\"\\b\\f\\n\\r\\t\"`",
        "`\"\\u0008\\u000C\\u000a\"` | `\"\\b\\f\\n\"`",
        "`\"\\u0000\\u001F\\u000b\"` | `\"\\u0000\\u001f\\u000b\"`",
        "`\"\\u007f\"` | `\"\u007f\"`",
        "`\"\\u2028\\u2029\"` | `\"\u2028\u2029\"`",
        "`\"\\u00e9\\u20AC\"` | `\"é€\"`",
        "`\"\\ud83d\\ude00\"` | `\"\uD83D\uDE00\"`",
        "`\"\\uFEFF\\uFFFF\"` | `\"\uFEFF\uFFFF\"`",
        "`\"</script>\"` | `\"</script>\"`",
      })
  void escapesAreMinimalAndEverythingElseIsLiteralUtf8(String json, String expected) {
    assertEquals(expected, utf8(JcsCanonicalizer.canonicalize(json)));
    assertEquals(
        expected, utf8(JcsCanonicalizer.canonicalize(json.getBytes(StandardCharsets.UTF_8))));
  }

  @Test
  void randomUnicodeStringsAreWrittenAsJsonStringifyWritesThemAndReadBackUnchanged()
      throws Exception {
    Random random = new Random(2028);
    for (int i = 0; i < 20_000; i++) {
      String s = randomString(random, 1 + random.nextInt(40));
      String expected = ReferenceJcs.string(s);
      assertNotNull(expected);
      String json = MAPPER.writeValueAsString(s);

      byte[] fromText = JcsCanonicalizer.canonicalize(json.getBytes(StandardCharsets.UTF_8));
      byte[] fromTree = JcsCanonicalizer.canonicalize(TextNode.valueOf(s));

      assertEquals(expected, utf8(fromText), json);
      assertArrayEquals(fromText, fromTree, json);
      assertEquals(s, MAPPER.readTree(fromText).textValue(), json);
    }
  }

  @Test
  void randomUnicodeNamesAreWrittenAsJsonStringifyWritesThemAndReadBackUnchanged()
      throws Exception {
    Random random = new Random(2029);
    for (int i = 0; i < 5_000; i++) {
      ObjectNode object = JsonNodeFactory.instance.objectNode();
      for (int m = 0; m < 1 + random.nextInt(6); m++) {
        object.put(randomString(random, random.nextInt(8)), m);
      }
      byte[] json = MAPPER.writeValueAsBytes(object);

      byte[] fromText = JcsCanonicalizer.canonicalize(json);
      byte[] fromTree = JcsCanonicalizer.canonicalize(object);

      assertEquals(ReferenceJcs.tree(object), utf8(fromText));
      assertArrayEquals(fromText, fromTree);
      assertEquals(object, MAPPER.readTree(fromText));
    }
  }

  @Test
  void randomStringsWithALoneSurrogateAreRefusedWhereverItStands() {
    Random random = new Random(55296);
    for (int i = 0; i < 5_000; i++) {
      StringBuilder sb = new StringBuilder(randomString(random, random.nextInt(10)));
      char lone = (char) (0xd800 + random.nextInt(0x800));
      int at = random.nextInt(sb.length() + 1);
      while (at > 0 && at < sb.length() && Character.isLowSurrogate(sb.charAt(at))) {
        at--; // keep existing pairs whole
      }
      sb.insert(at, lone);
      String s = sb.toString();
      if (ReferenceJcs.string(s) != null) {
        continue; // the inserted half happened to complete a pair
      }
      String escaped = String.format("\\u%04x", (int) lone);
      String prefix = ReferenceJcs.string(sb.substring(0, at));
      String json = "[" + prefix.substring(0, prefix.length() - 1) + escaped + "\"]";

      assertRefused(() -> JcsCanonicalizer.canonicalize(TextNode.valueOf(s)), "");
      assertRefused(
          () ->
              JcsCanonicalizer.canonicalize(
                  JsonNodeFactory.instance.objectNode().put("k", 1).put(s, 2)),
          "/" + s.replace("~", "~0").replace("/", "~1"));
      assertRefused(() -> JcsCanonicalizer.canonicalize(json), "/0");
    }
  }

  private static void assertRefused(Runnable canonicalize, String pointer) {
    CanonicalizationException e = assertThrows(CanonicalizationException.class, canonicalize::run);
    assertEquals(Reason.LONE_SURROGATE, e.reason(), e.getMessage());
    assertEquals(pointer, e.pointer());
  }

  /**
   * Mostly the hard cases: controls, quote and backslash, DEL, U+2028/U+2029, BOM and
   * noncharacters, Latin and CJK, astral pairs; never a lone surrogate.
   */
  static String randomString(Random random, int length) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < length; i++) {
      int kind = random.nextInt(10);
      int cp;
      switch (kind) {
        case 0:
          cp = random.nextInt(0x20);
          break;
        case 1:
          cp = HARD.charAt(random.nextInt(HARD.length()));
          break;
        case 2:
          cp = 0x80 + random.nextInt(0x780);
          break;
        case 3:
          cp = 0x800 + random.nextInt(0xd800 - 0x800);
          break;
        case 4:
          cp = 0xe000 + random.nextInt(0x2000);
          break;
        case 5:
        case 6:
          cp = 0x10000 + random.nextInt(0x100000);
          break;
        default:
          cp = 0x20 + random.nextInt(0x5f);
      }
      sb.appendCodePoint(cp);
    }
    return sb.toString();
  }

  private static String utf8(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
