package dev.jarvis.core.canonical;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.Fuzz;
import dev.jarvis.core.FuzzJson;
import dev.jarvis.core.FuzzRandom;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.canonical.CanonicalizationException.Reason;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.model.ProtocolErrorId;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Random JSON trees and text, with random Unicode and now and then a lone surrogate or a number
 * beyond the double range: the canonicalizer either writes a form that reads back as the same value
 * and is its own canonical form, or refuses with a {@link CanonicalizationException} that names a
 * value that really cannot be carried. Never any other exception.
 */
@DisplayName("Canonicalizer properties")
class CanonicalizerPropertyTest {

  private static final Set<Reason> UNCARRIED =
      Set.of(Reason.LONE_SURROGATE, Reason.NON_FINITE_NUMBER, Reason.NUMBER_OUT_OF_RANGE);

  @Test
  @DisplayName(
      "a tree has a canonical form that reads back as itself, or is refused for what it holds")
  void aTreeReadsBackAsItselfOrIsRefusedForWhatItHolds(TestInfo test) {
    Fuzz.forAll(
        test,
        1000,
        FuzzJson::tree,
        tree -> {
          Optional<byte[]> canonical = outcome(tree, () -> JcsCanonicalizer.canonicalize(tree));
          assertEquals(
              FuzzJson.cannotCarry(tree), canonical.isEmpty(), "refused exactly what it must");
          if (canonical.isPresent()) {
            byte[] bytes = canonical.get();
            JsonNode back = JarvisJson.mapper().readTree(bytes);
            assertTrue(FuzzJson.sameValue(tree, back), () -> "read back as " + back);
            assertArrayEquals(bytes, JcsCanonicalizer.canonicalize(bytes), "idempotent as text");
            assertArrayEquals(bytes, JcsCanonicalizer.canonicalize(back), "idempotent as a tree");
          }
        });
  }

  @Test
  @DisplayName("text and tree of one value have the same canonical form, or are both refused")
  void textAndTreeAgree(TestInfo test) {
    Fuzz.forAll(
        test,
        500,
        FuzzJson::tree,
        tree -> {
          byte[] text = FuzzJson.escapedText(tree);
          Optional<byte[]> fromTree = outcome(tree, () -> JcsCanonicalizer.canonicalize(tree));
          Optional<byte[]> fromText = outcome(tree, () -> JcsCanonicalizer.canonicalize(text));
          assertEquals(fromTree.isPresent(), fromText.isPresent(), "both write or both refuse");
          fromTree.ifPresent(bytes -> assertArrayEquals(bytes, fromText.orElseThrow()));
        });
  }

  /** A tree's JSON text cut short, or with one stray byte put in, at a random place. */
  private record Damaged(byte[] text) {
    static Damaged of(FuzzRandom random) {
      byte[] text = FuzzJson.escapedText(FuzzJson.tree(random));
      int cut = random.between(0, Math.max(0, text.length - 1));
      if (random.coin()) {
        return new Damaged(Arrays.copyOf(text, cut));
      }
      byte[] damaged = new byte[text.length + 1];
      System.arraycopy(text, 0, damaged, 0, cut);
      damaged[cut] = random.bytes(1, 1)[0];
      System.arraycopy(text, cut, damaged, cut + 1, text.length - cut);
      return new Damaged(damaged);
    }

    @Override
    public String toString() {
      return new String(text, StandardCharsets.ISO_8859_1);
    }
  }

  @Test
  @DisplayName("any bytes near JSON are canonical or a typed refusal, never another exception")
  void damagedTextIsCanonicalOrATypedRefusal(TestInfo test) {
    Fuzz.forAll(
        test,
        500,
        Damaged::of,
        damaged -> {
          try {
            byte[] canonical = JcsCanonicalizer.canonicalize(damaged.text());
            assertArrayEquals(canonical, JcsCanonicalizer.canonicalize(canonical));
          } catch (CanonicalizationException e) {
            assertTrue(FuzzJson.isJsonPointer(e.pointer()), e.pointer());
            assertRefusal(e.toViolation("fuzz"));
          }
        });
  }

  /**
   * The canonical bytes, or empty for a refusal that names a value that cannot be carried; any
   * other exception fails the property.
   */
  private static Optional<byte[]> outcome(JsonNode tree, Canonicalization run) {
    try {
      return Optional.of(run.bytes());
    } catch (CanonicalizationException e) {
      assertTrue(UNCARRIED.contains(e.reason()), () -> "refused for " + e.reason());
      assertTrue(names(tree, e), () -> e.getMessage() + " names nothing refusable");
      ProtocolViolation v = e.toViolation("fuzz");
      assertEquals(e.pointer(), v.field());
      assertRefusal(v);
      return Optional.empty();
    }
  }

  private static void assertRefusal(ProtocolViolation v) {
    assertEquals(ProtocolErrorId.UNKNOWN_STATE, v.errorId());
    assertTrue(FuzzJson.isJsonPointer(v.field()), v.field());
    assertFalse(v.reason().isBlank());
    assertFalse(v.remediation().isBlank());
  }

  /**
   * Whether the refusal's pointer leads to what it refuses: the value itself; for a lone surrogate
   * in a name, that member (trees) or the object holding it (text, which Jackson refuses before the
   * name is whole).
   */
  private static boolean names(JsonNode tree, CanonicalizationException e) {
    JsonNode at = tree.at(JsonPointer.compile(e.pointer()));
    if (e.reason() != Reason.LONE_SURROGATE) {
      return at.isNumber() && FuzzJson.cannotCarry(at);
    }
    if (at.isTextual() && FuzzJson.hasLoneSurrogate(at.textValue())) {
      return true;
    }
    boolean memberName = !e.pointer().isEmpty() && FuzzJson.hasLoneSurrogate(lastName(e.pointer()));
    boolean objectWithSuchName =
        at.isObject()
            && at.properties().stream().map(Map.Entry::getKey).anyMatch(FuzzJson::hasLoneSurrogate);
    return memberName || objectWithSuchName;
  }

  /** The last step of a pointer, unescaped (RFC 6901). */
  private static String lastName(String pointer) {
    return pointer.substring(pointer.lastIndexOf('/') + 1).replace("~1", "/").replace("~0", "~");
  }

  @FunctionalInterface
  private interface Canonicalization {
    byte[] bytes();
  }
}
