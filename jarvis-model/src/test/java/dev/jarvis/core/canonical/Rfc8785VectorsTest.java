package dev.jarvis.core.canonical;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.DoubleNode;
import dev.jarvis.core.canonical.CanonicalizationException.Reason;
import dev.jarvis.core.canonical.internal.EcmaNumber;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The RFC 8785 vectors of {@code shared/vectors/jcs}, read from the test resources. */
@DisplayName("RFC 8785 vectors")
class Rfc8785VectorsTest {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  @ParameterizedTest(name = "input/{0} canonicalizes to output/{0} byte for byte")
  @MethodSource("pairs")
  void rawInputCanonicalizesToTheOutputByteForByte(String name) throws IOException {
    byte[] expected = Vectors.bytes("output/" + name);
    byte[] input = Vectors.bytes("input/" + name);

    assertArrayEquals(expected, JcsCanonicalizer.canonicalize(input), () -> utf8(expected));
    assertArrayEquals(
        expected, JcsCanonicalizer.canonicalize(new String(input, StandardCharsets.UTF_8)));
    assertArrayEquals(expected, JcsCanonicalizer.canonicalize(new ByteArrayInputStream(input)));
  }

  @ParameterizedTest(name = "the tree of input/{0} canonicalizes to output/{0} byte for byte")
  @MethodSource("pairs")
  void treeOfTheInputCanonicalizesToTheOutputByteForByte(String name) throws IOException {
    JsonNode tree = MAPPER.readTree(Vectors.bytes("input/" + name));

    assertArrayEquals(Vectors.bytes("output/" + name), JcsCanonicalizer.canonicalize(tree));
  }

  @ParameterizedTest(name = "output/{0} is its own canonical form")
  @MethodSource("pairs")
  void everyOutputIsItsOwnCanonicalForm(String name) {
    byte[] output = Vectors.bytes("output/" + name);

    assertArrayEquals(output, JcsCanonicalizer.canonicalize(output));
  }

  @Test
  void theSortingExampleOfSection323ComesOutInTheRfcsOrder() {
    byte[] output = JcsCanonicalizer.canonicalize(Vectors.bytes("sort-3.2.3.input.json"));

    assertArrayEquals(Vectors.bytes("sort-3.2.3.output.json"), output);
  }

  @Test
  void theSortingExampleOfSection323ListsItsValuesInTheExpectedOrder() throws IOException {
    JsonNode sorted =
        MAPPER.readTree(JcsCanonicalizer.canonicalize(Vectors.bytes("sort-3.2.3.input.json")));
    List<String> values = new ArrayList<>();
    sorted.properties().forEach(e -> values.add(e.getValue().textValue()));

    assertEquals(Vectors.lines("sort-3.2.3.expected-order.txt"), values);
  }

  @Test
  void theValuesExampleOfSection324GivesTheRfcsHexBytes() {
    String hex =
        Vectors.lines("values-3.2.4.outhex.txt").stream()
            .collect(Collectors.joining(" "))
            .replaceAll("\\s+", "");
    byte[] expected = HexFormat.of().parseHex(hex);

    assertArrayEquals(expected, JcsCanonicalizer.canonicalize(Vectors.bytes("input/values.json")));
  }

  @ParameterizedTest(name = "ES6 number {0} is written as {1}")
  @MethodSource("es6Numbers")
  void everyEs6NumberIsWrittenAsEcmaScriptWritesIt(String bits, String expected) {
    assertNumberIsWrittenAs(bits, expected);
  }

  @ParameterizedTest(name = "Appendix B number {0} is written as {1}")
  @MethodSource("appendixBNumbers")
  void everyAppendixBNumberIsWrittenAsTheRfcSays(String bits, String expected) {
    double v = Double.longBitsToDouble(Long.parseUnsignedLong(bits, 16));
    if (expected.equals("ERROR")) {
      CanonicalizationException e =
          assertThrows(
              CanonicalizationException.class,
              () -> JcsCanonicalizer.canonicalize(DoubleNode.valueOf(v)));
      assertEquals(Reason.NON_FINITE_NUMBER, e.reason());
    } else {
      assertNumberIsWrittenAs(bits, expected);
    }
  }

  @Test
  void theCopiedVectorsAreTheSameAsTheSharedOnesWhereThoseAreAtHand() throws IOException {
    Path shared = Vectors.sharedDir();
    assumeTrue(Files.isDirectory(shared), "no shared vectors at " + shared.toAbsolutePath());
    List<String> sharedFiles;
    try (Stream<Path> walk = Files.walk(shared)) {
      sharedFiles =
          walk.filter(Files::isRegularFile)
              .map(p -> shared.relativize(p).toString().replace('\\', '/'))
              .sorted()
              .collect(Collectors.toList());
    }

    assertEquals(Vectors.FILES.stream().sorted().collect(Collectors.toList()), sharedFiles);
    for (String file : sharedFiles) {
      assertArrayEquals(Files.readAllBytes(shared.resolve(file)), Vectors.bytes(file), file);
    }
  }

  /** Through the number writer, through raw JSON text, and through a tree. */
  private static void assertNumberIsWrittenAs(String bits, String expected) {
    double v = Double.longBitsToDouble(Long.parseUnsignedLong(bits, 16));

    assertEquals(expected, EcmaNumber.toString(v));
    assertEquals(expected, utf8(JcsCanonicalizer.canonicalize(Double.toString(v))));
    assertEquals(expected, utf8(JcsCanonicalizer.canonicalize(expected)));
    assertEquals(expected, utf8(JcsCanonicalizer.canonicalize(DoubleNode.valueOf(v))));
  }

  static Stream<String> pairs() {
    return Vectors.PAIRS.stream();
  }

  static Stream<Arguments> es6Numbers() {
    return numbers("es6testfile_1000.txt");
  }

  static Stream<Arguments> appendixBNumbers() {
    return numbers("appendix-b-numbers.csv");
  }

  private static Stream<Arguments> numbers(String file) {
    return Vectors.lines(file).stream()
        .map(
            line -> {
              int comma = line.indexOf(',');
              return Arguments.of(line.substring(0, comma), line.substring(comma + 1));
            });
  }

  private static String utf8(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
