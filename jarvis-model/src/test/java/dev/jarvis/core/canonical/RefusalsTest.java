package dev.jarvis.core.canonical;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BinaryNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.POJONode;
import dev.jarvis.core.canonical.CanonicalizationException.Reason;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** What has no canonical form is refused, naming the JSON Pointer of the offending value. */
@DisplayName("Refusals")
class RefusalsTest {

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  @ParameterizedTest(name = "{0} is refused for a duplicate name at ''{1}''")
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"a\":1,\"a\":2} | /a",
        "{\"b\":0,\"a\":1,\"a\":1} | /a",
        "{\"x\":[{\"b\":1},{\"a/b\":1,\"c\":{},\"a/b\":2}]} | /x/1/a~1b",
        "{\"~\":1,\"~\":2} | /~0",
        "{\"\":1,\"\":2} | /",
        "[{\"é\":1,\"\\u00e9\":2}] | /0/é",
        "{\"a\":{\"a\":1},\"a\":2} | /a",
      })
  void duplicateNamesAreRefused(String json, String pointer) {
    assertRefused(Reason.DUPLICATE_NAME, pointer, json);
  }

  @Test
  void aDuplicateAmongManyMembersIsRefused() {
    StringBuilder json = new StringBuilder("{\"outer\":{");
    for (int i = 999; i >= 0; i--) {
      json.append("\"m").append(i % 700).append("\":").append(i).append(',');
    }
    json.setLength(json.length() - 1);
    json.append("}}");

    CanonicalizationException e = assertRefused(Reason.DUPLICATE_NAME, null, json.toString());
    assertTrue(e.pointer().startsWith("/outer/m"), e.pointer());
  }

  @ParameterizedTest(name = "{0} is refused for a lone surrogate at ''{1}''")
  @CsvSource(
      delimiter = '|',
      value = {
        "\"\\ud800\" | ''",
        "\"a\\udfff\" | ''",
        "\"\\ude00\\ud83d\" | ''",
        "\"\\ud83d\\ud83d\\ude00\" | ''",
        "{\"a\":[1,\"x\\udbff\"]} | /a/1",
      })
  void loneSurrogatesAreRefusedInStrings(String json, String pointer) {
    assertRefused(Reason.LONE_SURROGATE, pointer, json);
  }

  /** Jackson refuses these names itself, before it has read them whole: the object is named. */
  @ParameterizedTest(name = "{0} is refused for a lone surrogate in a name of ''{1}''")
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"k\\ud800\":1} | ''",
        "{\"a\\ud800b\":1} | ''",
        "{\"ok\":{\"\\udc00\":true}} | /ok",
        "[{\"\\udc00\\ud800\":1}] | /0",
        "{\"a\":1,\"\\ud800\":2} | ''",
        "{\"x\":{\"a\":1,\"b\\udc00\":2}} | /x",
      })
  void loneSurrogatesAreRefusedInNames(String json, String pointer) {
    assertRefused(Reason.LONE_SURROGATE, pointer, json);
  }

  @Test
  void loneSurrogatesInJavaStringsAreRefusedWithThePointerOfTheirStringOrName() {
    assertRefusedText(Reason.LONE_SURROGATE, "/1", "[0,\"\ud800\"]");
    assertRefusedText(Reason.LONE_SURROGATE, "/0/k\udfff", "[{\"k\udfff\":0}]");
  }

  @Test
  void loneSurrogatesInTreesAreRefused() {
    ObjectNode tree = NODES.objectNode();
    tree.putArray("list").add("fine").add("\udc00");
    assertRefusedTree(Reason.LONE_SURROGATE, "/list/1", tree);
  }

  @ParameterizedTest(name = "{0} is refused as not a finite number at ''{1}''")
  @CsvSource(
      delimiter = '|',
      value = {
        "NaN | ''",
        "[Infinity] | /0",
        "{\"n\":-Infinity} | /n",
        "[1,+INF] | /1",
        "{\"x\":[-INF]} | /x/0",
      })
  void nanAndInfinityTokensAreRefused(String json, String pointer) {
    assertRefused(Reason.NON_FINITE_NUMBER, pointer, json);
  }

  @ParameterizedTest(name = "{0} is refused as beyond the double range")
  @ValueSource(
      strings = {
        "1e400",
        "-1e400",
        "[1.8e308]",
        "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792",
      })
  void numbersBeyondTheDoubleRangeAreRefused(String json) {
    assertRefused(Reason.NUMBER_OUT_OF_RANGE, json.startsWith("[") ? "/0" : "", json);
  }

  @Test
  void numbersBelowTheDoubleRangeRoundToZeroAsRfc8785Prescribes() {
    assertEquals("[0,0,5e-324]", text(JcsCanonicalizer.canonicalize("[1e-400,-1e-400,3e-324]")));
  }

  @ParameterizedTest(name = "{0} is refused for what follows its value")
  @ValueSource(strings = {"{} x", "{}}", "1 2", "{} {}", "[1]]", "\"a\" \"b\"", "null,", "0 /"})
  void trailingContentIsRefused(String json) {
    assertRefused(Reason.TRAILING_CONTENT, "", json);
  }

  @ParameterizedTest(name = "''{0}'' is refused as malformed")
  @ValueSource(
      strings = {
        "",
        "   ",
        "{",
        "[1,]",
        "{\"a\":1,}",
        "{'a':1}",
        "{a:1}",
        "01",
        "1.",
        ".5",
        "+1",
        "[1 2]",
        "tru",
        "\"a\nb\"",
        "\"\\x\"",
        "/* comment */ 1",
        "[\"unterminated]",
      })
  void malformedJsonIsRefused(String json) {
    assertRefused(Reason.MALFORMED_JSON, null, json);
  }

  @Test
  void aMalformedValueIsRefusedWithThePointerOfWhereItStands() {
    assertRefused(Reason.MALFORMED_JSON, "/a/1", "{\"a\":[true,fals]}");
  }

  @Test
  void textThatIsNotUtf8IsRefused() {
    byte[] bom = {(byte) 0xef, (byte) 0xbb, (byte) 0xbf, '1'};
    byte[] utf16 = "\"a\"".getBytes(StandardCharsets.UTF_16BE);
    byte[] utf16le = "[1]".getBytes(StandardCharsets.UTF_16LE);
    byte[] overlong = {'"', (byte) 0xc0, (byte) 0xa2, '"'};
    byte[] encodedSurrogate = {'[', '"', (byte) 0xed, (byte) 0xa0, (byte) 0x80, '"', ']'};
    byte[] truncated = {'"', (byte) 0xe2, (byte) 0x82, '"'};

    for (byte[] bytes : new byte[][] {bom, utf16, utf16le, overlong, encodedSurrogate, truncated}) {
      CanonicalizationException e =
          assertThrows(CanonicalizationException.class, () -> JcsCanonicalizer.canonicalize(bytes));
      assertEquals(Reason.MALFORMED_JSON, e.reason(), e.getMessage());
    }
  }

  @Test
  void nestingDeeperThanTheLimitIsRefused() {
    String deep = "[".repeat(1001) + "]".repeat(1001);
    assertRefused(Reason.LIMIT_EXCEEDED, null, deep);

    JsonNode tree = NODES.arrayNode();
    for (int i = 0; i < 1000; i++) {
      tree = NODES.arrayNode().add(tree);
    }
    assertRefusedTree(Reason.LIMIT_EXCEEDED, "/0".repeat(1000), tree);
  }

  @Test
  void nestingUpToTheLimitIsCanonicalized() {
    String deep = "[".repeat(1000) + "]".repeat(1000);
    assertEquals(deep, text(JcsCanonicalizer.canonicalize(deep)));
  }

  @Test
  void treesWithNonFiniteNumbersAreRefused() {
    ObjectNode tree = NODES.objectNode();
    ArrayNode list = tree.putArray("x");
    list.add(1);
    list.add(DoubleNode.valueOf(Double.NaN));
    assertRefusedTree(Reason.NON_FINITE_NUMBER, "/x/1", tree);
    assertRefusedTree(Reason.NON_FINITE_NUMBER, "", DoubleNode.valueOf(Double.NEGATIVE_INFINITY));
    assertRefusedTree(Reason.NON_FINITE_NUMBER, "", FloatNode.valueOf(Float.POSITIVE_INFINITY));
  }

  @Test
  void treesWithNumbersBeyondTheDoubleRangeAreRefused() {
    assertRefusedTree(
        Reason.NUMBER_OUT_OF_RANGE,
        "/big",
        NODES.objectNode().set("big", DecimalNode.valueOf(new BigDecimal("1e400"))));
    assertRefusedTree(
        Reason.NUMBER_OUT_OF_RANGE, "", BigIntegerNode.valueOf(BigInteger.TEN.pow(400)));
  }

  @Test
  void treeNodesThatAreNoJsonValueAreRefused() {
    assertRefusedTree(Reason.UNSUPPORTED_VALUE, "", MissingNode.getInstance());
    assertRefusedTree(
        Reason.UNSUPPORTED_VALUE,
        "/b",
        NODES.objectNode().set("b", BinaryNode.valueOf(new byte[1])));
    assertRefusedTree(
        Reason.UNSUPPORTED_VALUE, "/0", NODES.arrayNode().add(new POJONode(new Object())));
  }

  @Test
  void theMessageNamesThePointerAndShowsUnprintableCharactersEscaped() {
    CanonicalizationException e =
        assertThrows(
            CanonicalizationException.class,
            () -> JcsCanonicalizer.canonicalize("{\"a\\n\":{\"x\":1,\"x\":2}}"));

    assertEquals("/a\n/x", e.pointer());
    assertTrue(e.getMessage().contains("'/a\\u000a/x'"), e.getMessage());
  }

  /** Refused from bytes, from a Java string and from a stream alike. */
  private static CanonicalizationException assertRefused(
      Reason reason, String pointer, String json) {
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    if (json.chars().noneMatch(c -> Character.isSurrogate((char) c))) {
      CanonicalizationException fromBytes =
          refusal(reason, pointer, () -> JcsCanonicalizer.canonicalize(bytes));
      refusal(reason, pointer, () -> Sha256Hash.ofCanonicalJson(bytes));
      refusal(
          reason,
          pointer,
          () -> {
            try {
              return JcsCanonicalizer.canonicalize(new java.io.ByteArrayInputStream(bytes));
            } catch (java.io.IOException io) {
              throw new java.io.UncheckedIOException(io);
            }
          });
      assertRefusedText(reason, pointer, json);
      return fromBytes;
    }
    return assertRefusedText(reason, pointer, json);
  }

  private static CanonicalizationException assertRefusedText(
      Reason reason, String pointer, String json) {
    return refusal(reason, pointer, () -> JcsCanonicalizer.canonicalize(json));
  }

  private static void assertRefusedTree(Reason reason, String pointer, JsonNode tree) {
    refusal(reason, pointer, () -> JcsCanonicalizer.canonicalize(tree));
    refusal(reason, pointer, () -> Sha256Hash.ofCanonical(tree));
  }

  private static CanonicalizationException refusal(
      Reason reason, String pointer, Supplier<?> canonicalize) {
    CanonicalizationException e = assertThrows(CanonicalizationException.class, canonicalize::get);
    assertEquals(reason, e.reason(), e.getMessage());
    if (pointer != null) {
      assertEquals(pointer, e.pointer(), e.getMessage());
      assertTrue(e.getMessage().contains("JSON Pointer '"), e.getMessage());
    }
    return e;
  }

  private static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
