package dev.jarvis.core.canonical;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

@DisplayName("SHA-256 hash text")
class Sha256HashTest {

  private static final String EMPTY =
      "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
  private static final String ABC =
      "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";

  /** sha256sum of shared/vectors/jcs/output/values.json. */
  private static final String VALUES_VECTOR =
      "sha256:2d5e01a318d0f0879ab568c4be289c8b1f64ef8921a53c6277d5e069978baacb";

  @Test
  void theTextIsSha256AndSixtyFourLowercaseHexDigitsOfTheBytesAsGiven() {
    assertEquals(EMPTY, Sha256Hash.of(new byte[0]).text());
    assertEquals(ABC, Sha256Hash.of("abc".getBytes(StandardCharsets.US_ASCII)).text());
    assertEquals(ABC, Sha256Hash.of("xabcx".getBytes(StandardCharsets.US_ASCII), 1, 3).text());
    assertEquals(ABC, Sha256Hash.of("abc".getBytes(StandardCharsets.US_ASCII)).toString());
  }

  @Test
  void aJsonValueIsHashedOverItsCanonicalForm() throws Exception {
    byte[] input = Vectors.bytes("input/values.json");
    JsonNode tree = new ObjectMapper().readTree(input);

    assertEquals(VALUES_VECTOR, Sha256Hash.ofCanonicalJson(input).text());
    assertEquals(VALUES_VECTOR, Sha256Hash.ofCanonical(tree).text());
    assertEquals(VALUES_VECTOR, Sha256Hash.of(Vectors.bytes("output/values.json")).text());
  }

  @Test
  void theSameValueWrittenDifferentlyHasTheSameHash() {
    Sha256Hash a = Sha256Hash.ofCanonicalJson(utf8("{\"b\": [1.0, 2e0], \"a\": \"\\u00e9\"}"));
    Sha256Hash b = Sha256Hash.ofCanonicalJson(utf8("{\"a\":\"é\",\"b\":[1,2]}"));
    Sha256Hash c = Sha256Hash.ofCanonicalJson(utf8("{\"a\":\"é\",\"b\":[1,3]}"));

    assertEquals(a, b);
    assertEquals(a.hashCode(), b.hashCode());
    assertNotEquals(a, c);
  }

  @Test
  void aHashTextParsesBackToTheSameHash() {
    Sha256Hash hash = Sha256Hash.of(utf8("abc"));
    Sha256Hash parsed = Sha256Hash.parse(ABC);

    assertEquals(hash, parsed);
    assertEquals(ABC, parsed.text());
    assertArrayEquals(hash.digest(), parsed.digest());
    assertTrue(Sha256Hash.isValid(ABC));
    assertTrue(parsed.matches(ABC));
    assertFalse(parsed.matches(EMPTY));
  }

  @Test
  void theDigestIsACopy() {
    Sha256Hash hash = Sha256Hash.parse(ABC);
    byte[] digest = hash.digest();
    digest[0] ^= 1;

    assertEquals(32, digest.length);
    assertEquals(ABC, hash.text());
    assertEquals(Sha256Hash.parse(ABC), hash);
  }

  @Test
  void theGenesisMarkerIsTheSpecsValueAndNoHashText() {
    assertEquals("hash:protocol-genesis", Sha256Hash.GENESIS);
    assertFalse(Sha256Hash.isValid(Sha256Hash.GENESIS));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Sha256Hash.parse(Sha256Hash.GENESIS));
    assertTrue(e.getMessage().contains("genesis"), e.getMessage());
  }

  @ParameterizedTest(name = "''{0}'' is no hash text")
  @NullAndEmptySource
  @ValueSource(
      strings = {
        "sha256:",
        "sha256:BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD",
        "sha256:Ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015a",
        "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad0",
        "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ag",
        "sha256: a7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        "SHA256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        "sha-256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        " sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad ",
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        "hash:event-worksession-created",
      })
  void anythingElseIsNoHashText(String text) {
    assertFalse(Sha256Hash.isValid(text));
    assertThrows(IllegalArgumentException.class, () -> Sha256Hash.parse(text));
  }

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
