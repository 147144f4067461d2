package dev.jarvis.core.canonical;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.FloatNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.ShortNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Raw text and Jackson trees canonicalize alike, and as a plain reading of RFC 8785 does. */
@DisplayName("Trees and text")
class TreesAndTextTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  @Test
  void randomTreesCanonicalizeAsTheirTextAndAsTheReferenceDoes() throws Exception {
    Random random = new Random(3_141_592);
    for (int i = 0; i < 3_000; i++) {
      JsonNode tree = randomValue(random, 0);
      byte[] text = MAPPER.writeValueAsBytes(tree);
      byte[] expected = ReferenceJcs.treeBytes(tree);

      byte[] fromTree = JcsCanonicalizer.canonicalize(tree);
      byte[] fromText = JcsCanonicalizer.canonicalize(text);

      assertEquals(utf8(expected), utf8(fromTree));
      assertArrayEquals(expected, fromText, () -> utf8(text));
      assertArrayEquals(expected, JcsCanonicalizer.canonicalize(expected), "idempotent");
      assertArrayEquals(expected, JcsCanonicalizer.canonicalize(shuffled(tree, random)));
    }
  }

  @Test
  void membersAreOrderedByUtf16CodeUnitsNotByCodePoints() {
    // U+10000 is the pair D800 DC00, which sorts before U+E000 by code units, after it by points.
    String json = "{\"\ue000\":1,\"\ud800\udc00\":2,\"\u00ff\":3,\"a\":4,\"\":5}";

    assertEquals(
        "{\"\":5,\"a\":4,\"\u00ff\":3,\"\ud800\udc00\":2,\"\ue000\":1}",
        utf8(JcsCanonicalizer.canonicalize(json)));
  }

  @Test
  void manyMembersAreOrderedAsATreeMapOrdersThem() throws Exception {
    Random random = new Random(1000);
    for (int size : new int[] {17, 100, 5_000, 70_000, 3}) {
      Map<String, Integer> sorted = new TreeMap<>();
      while (sorted.size() < size) {
        sorted.put(StringsTest.randomString(random, random.nextInt(6)), sorted.size());
      }
      List<String> names = new ArrayList<>(sorted.keySet());
      Collections.shuffle(names, random);
      ObjectNode object = NODES.objectNode();
      names.forEach(name -> object.put(name, sorted.get(name)));
      ObjectNode expected = NODES.objectNode();
      sorted.forEach(expected::put);

      byte[] canonical = JcsCanonicalizer.canonicalize(MAPPER.writeValueAsBytes(object));

      assertEquals(ReferenceJcs.tree(expected), utf8(canonical));
      assertArrayEquals(canonical, JcsCanonicalizer.canonicalize(object));
    }
  }

  @Test
  void namesSharingLongPrefixesAreOrderedAsStringCompareToOrdersThem() throws Exception {
    List<String> names =
        new ArrayList<>(
            List.of(
                "abcd",
                "abcde",
                "abcd\u0000",
                "abc",
                "abc\u0000",
                "abc\u0000\u0000",
                "ab",
                "ab\uffff\uffff",
                "\uffff",
                "\uffff\uffff\uffff\uffff\u0000",
                "\uffff\uffff\uffff\uffff",
                "\ud800\udc00x",
                "\ud83d\ude00",
                "\ue000",
                "",
                "\u0000",
                "\u8000",
                "\u7fff",
                "abcdefgh",
                "abcdefgg"));
    Collections.shuffle(names, new Random(7));
    ObjectNode object = NODES.objectNode();
    names.forEach(name -> object.put(name, name.length()));

    byte[] canonical = JcsCanonicalizer.canonicalize(MAPPER.writeValueAsBytes(object));

    assertEquals(ReferenceJcs.tree(object), utf8(canonical));
    assertArrayEquals(canonical, JcsCanonicalizer.canonicalize(object));
  }

  @Test
  void longStringsAreWrittenWholeWhateverTheyHold() throws Exception {
    Random random = new Random(65536);
    StringBuilder mixed = new StringBuilder();
    while (mixed.length() < 200_000) {
      mixed.append(StringsTest.randomString(random, 50));
    }
    String plain = "x".repeat(3_000_000);
    String escapes = "\u0001\"\\".repeat(100_000);

    for (String s : new String[] {mixed.toString(), plain, escapes, plain + mixed}) {
      JsonNode node = NODES.arrayNode().add(s).add(1);
      byte[] expected = ReferenceJcs.treeBytes(node);

      assertArrayEquals(expected, JcsCanonicalizer.canonicalize(MAPPER.writeValueAsBytes(node)));
      assertArrayEquals(expected, JcsCanonicalizer.canonicalize(node));
    }
    assertEquals("[1]", utf8(JcsCanonicalizer.canonicalize("[1]")), "after large buffers");
  }

  @Test
  void arraysKeepTheirOrderAndWhitespaceIsDropped() {
    assertEquals(
        "{\"a\":[3,1,2,{\"x\":[],\"y\":{}}],\"b\":null}",
        utf8(
            JcsCanonicalizer.canonicalize(
                " \n{ \"b\" : null ,\t\"a\" : [ 3 , 1 , 2 , { \"y\" : { } , \"x\" : [ ] } ] }\r\n")));
  }

  @ParameterizedTest(name = "the number {0} is written as {1}")
  @CsvSource({
    "-0, 0",
    "-0.0, 0",
    "0E-5, 0",
    "1.0, 1",
    "1e2, 100",
    "1E+2, 100",
    "0.1000, 0.1",
    "9007199254740993, 9007199254740992",
    "-9007199254740993, -9007199254740992",
    "9223372036854775807, 9223372036854776000",
    "123456789012345678901234567890, 1.2345678901234568e+29",
    "2147483648, 2147483648",
    "-2147483649, -2147483649",
    "1e-7, 1e-7",
    "0.000001, 0.000001",
  })
  void numbersAreReadAsDoublesAndWrittenAsEcmaScriptDoes(String json, String expected) {
    assertEquals(expected, utf8(JcsCanonicalizer.canonicalize(json)));
  }

  @Test
  void numberNodesOfEveryKindAreReadAsDoubles() {
    ArrayNode tree = NODES.arrayNode();
    tree.add(ShortNode.valueOf((short) -7));
    tree.add(IntNode.valueOf(Integer.MIN_VALUE));
    tree.add(LongNode.valueOf((1L << 53) + 1));
    tree.add(BigIntegerNode.valueOf(BigInteger.TEN.pow(21)));
    tree.add(DecimalNode.valueOf(new BigDecimal("0.1000")));
    tree.add(DecimalNode.valueOf(new BigDecimal("1E-400")));
    tree.add(DoubleNode.valueOf(-0.0));
    tree.add(FloatNode.valueOf(0.1f));

    assertEquals(
        "[-7,-2147483648,9007199254740992,1e+21,0.1,0,0,0.1]",
        utf8(JcsCanonicalizer.canonicalize(tree)));
  }

  @Test
  void aFloatNodeCanonicalizesAsTheTextJacksonWritesForIt() throws Exception {
    for (float f : new float[] {0.1f, 1.0e-45f, 3.4028235e38f, 16777217f, 1.17549435E-38f}) {
      JsonNode node = FloatNode.valueOf(f);

      assertArrayEquals(
          JcsCanonicalizer.canonicalize(MAPPER.writeValueAsBytes(node)),
          JcsCanonicalizer.canonicalize(node),
          Float.toString(f));
    }
  }

  @Test
  void everyEntryPointGivesTheSameBytes() throws Exception {
    String json = "{\"é\":[1.50,\"\\u2028\"],\"a\":true}";
    byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
    byte[] padded = ("xx" + json + "yy").getBytes(StandardCharsets.UTF_8);
    byte[] expected = "{\"a\":true,\"é\":[1.5,\"\u2028\"]}".getBytes(StandardCharsets.UTF_8);

    assertArrayEquals(expected, JcsCanonicalizer.canonicalize(bytes));
    assertArrayEquals(expected, JcsCanonicalizer.canonicalize(json));
    assertArrayEquals(expected, JcsCanonicalizer.canonicalize(padded, 2, bytes.length));
    assertArrayEquals(
        expected, JcsCanonicalizer.canonicalize(new java.io.ByteArrayInputStream(bytes)));
    assertArrayEquals(expected, JcsCanonicalizer.canonicalize(MAPPER.readTree(bytes)));
  }

  @Test
  void aRefusalLeavesNothingBehindForTheNextCall() {
    assertThrows(
        CanonicalizationException.class,
        () -> JcsCanonicalizer.canonicalize("{\"z\":{\"b\":1,\"a\":[1,{\"c\":2,\"c\":3}]}}"));
    assertThrows(
        CanonicalizationException.class,
        () -> JcsCanonicalizer.canonicalize(NODES.objectNode().put("b", "\ud800").put("a", 1)));

    assertEquals("{\"a\":1,\"b\":2}", utf8(JcsCanonicalizer.canonicalize("{\"b\":2,\"a\":1}")));
    assertEquals(
        "{\"a\":1,\"b\":2}",
        utf8(JcsCanonicalizer.canonicalize(NODES.objectNode().put("b", 2).put("a", 1))));
  }

  @Test
  void threadsCanonicalizingAtOnceDoNotDisturbEachOther() throws Exception {
    Random random = new Random(4);
    List<JsonNode> trees = new ArrayList<>();
    List<byte[]> texts = new ArrayList<>();
    List<byte[]> expected = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      JsonNode tree = randomValue(random, 0);
      trees.add(tree);
      texts.add(MAPPER.writeValueAsBytes(tree));
      expected.add(ReferenceJcs.treeBytes(tree));
    }
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> runs = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int offset = t;
        runs.add(
            pool.submit(
                () -> {
                  for (int round = 0; round < 20; round++) {
                    for (int i = 0; i < trees.size(); i++) {
                      int k = (i * 7 + offset * 13 + round) % trees.size();
                      assertArrayEquals(
                          expected.get(k), JcsCanonicalizer.canonicalize(texts.get(k)));
                      assertArrayEquals(
                          expected.get(k), JcsCanonicalizer.canonicalize(trees.get(k)));
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> run : runs) {
        run.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** A random JSON value, objects and arrays at most four deep. */
  static JsonNode randomValue(Random random, int depth) {
    int kind = random.nextInt(depth >= 4 ? 8 : 11);
    switch (kind) {
      case 0:
        return NODES.nullNode();
      case 1:
        return NODES.booleanNode(random.nextBoolean());
      case 2:
        return NODES.textNode(StringsTest.randomString(random, random.nextInt(12)));
      case 3:
        return IntNode.valueOf(random.nextInt());
      case 4:
        return LongNode.valueOf(random.nextLong() >> random.nextInt(64));
      case 5:
        return DoubleNode.valueOf(
            random.nextBoolean()
                ? EcmaScriptNumbersTest.randomFiniteDouble(random)
                : Math.scalb(random.nextInt(100_000) - 50_000, -random.nextInt(20)));
      case 6:
        return DecimalNode.valueOf(BigDecimal.valueOf(random.nextLong(), random.nextInt(60) - 30));
      case 7:
        return BigIntegerNode.valueOf(new BigInteger(1 + random.nextInt(200), random));
      case 8:
      case 9:
        {
          ObjectNode object = NODES.objectNode();
          int n = random.nextInt(7);
          for (int i = 0; i < n; i++) {
            String name =
                random.nextInt(3) == 0
                    ? "abc".substring(0, random.nextInt(4))
                    : StringsTest.randomString(random, random.nextInt(5));
            object.set(name, randomValue(random, depth + 1));
          }
          return object;
        }
      default:
        {
          ArrayNode array = NODES.arrayNode();
          int n = random.nextInt(6);
          for (int i = 0; i < n; i++) {
            array.add(randomValue(random, depth + 1));
          }
          return array;
        }
    }
  }

  /** The same tree with the members of every object in another order. */
  private static JsonNode shuffled(JsonNode node, Random random) {
    if (node.isObject()) {
      List<Map.Entry<String, JsonNode>> members = new ArrayList<>();
      node.properties().forEach(members::add);
      Collections.shuffle(members, random);
      ObjectNode copy = NODES.objectNode();
      members.forEach(e -> copy.set(e.getKey(), shuffled(e.getValue(), random)));
      return copy;
    }
    if (node.isArray()) {
      ArrayNode copy = NODES.arrayNode();
      node.forEach(child -> copy.add(shuffled(child, random)));
      return copy;
    }
    return node;
  }

  private static String utf8(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
