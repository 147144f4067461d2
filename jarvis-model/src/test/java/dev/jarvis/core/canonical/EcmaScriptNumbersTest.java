package dev.jarvis.core.canonical;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.jarvis.core.canonical.internal.EcmaNumber;
import java.math.BigDecimal;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Numbers are written as ECMAScript's Number.prototype.toString writes them: checked on seeded
 * random doubles against a BigDecimal search for the shortest, closest decimal.
 */
@DisplayName("ECMAScript number text")
class EcmaScriptNumbersTest {

  /** Sign, integer part, fraction without trailing zeros, exponent with its sign. */
  private static final Pattern LAYOUT =
      Pattern.compile("-?(0|[1-9][0-9]*)(?:\\.([0-9]*[1-9]))?(?:e([+-])([1-9][0-9]*))?");

  private static final int RANDOM_DOUBLES = 1_000_000;

  @ParameterizedTest(name = "{0} is written as {1}")
  @CsvSource({
    "0.0, 0",
    "-0.0, 0",
    "1.0, 1",
    "-1.0, -1",
    "100.0, 100",
    "0.1, 0.1",
    "0.30000000000000004, 0.30000000000000004",
    "123.456, 123.456",
    "1.0E20, 100000000000000000000",
    "9.999999999999999E20, 999999999999999900000",
    "1.0E21, 1e+21",
    "1.5E21, 1.5e+21",
    "1.0E-6, 0.000001",
    "1.5E-6, 0.0000015",
    "1.0E-7, 1e-7",
    "1.5E-7, 1.5e-7",
    "4.9E-324, 5e-324",
    "1.7976931348623157E308, 1.7976931348623157e+308",
    "2.2250738585072014E-308, 2.2250738585072014e-308",
    "9.007199254740992E15, 9007199254740992",
    "9.007199254740994E15, 9007199254740994",
    "9.223372036854776E18, 9223372036854776000",
    "2.0E-3, 0.002",
    "1.0E23, 1e+23",
    "5.0E-324, 5e-324",
    "1.0E-323, 1e-323",
  })
  void notableNumbersAreWrittenAsEcmaScriptWritesThem(double v, String expected) {
    assertEquals(expected, EcmaNumber.toString(v));
  }

  @Test
  void aMillionRandomDoublesReadBackAsThemselvesInEcmaScriptLayout() {
    Random random = new Random(8785);
    for (int i = 0; i < RANDOM_DOUBLES; i++) {
      double v = randomFiniteDouble(random);
      String text = EcmaNumber.toString(v);

      if (Double.doubleToLongBits(Double.parseDouble(text)) != Double.doubleToLongBits(v + 0.0)) {
        fail(text + " does not read back as " + v);
      }
      assertLayout(v, text);
    }
  }

  @Test
  void aMillionRandomDoublesHaveTheShortestClosestDigits() {
    Random random = new Random(1_000_000);
    for (int i = 0; i < RANDOM_DOUBLES; i++) {
      double v = randomFiniteDouble(random);
      assertShortestAndClosest(v, EcmaNumber.toString(v));
    }
  }

  @Test
  void randomShortDecimalsComeBackWithNoMoreDigitsThanTheyHad() {
    Random random = new Random(42);
    for (int i = 0; i < 100_000; i++) {
      int digits = 1 + random.nextInt(15);
      long significand = (long) (random.nextDouble() * Math.pow(10, digits));
      int exponent = random.nextInt(640) - 330;
      String decimal = significand + "e" + exponent;
      double v = Double.parseDouble(decimal);
      if (v == 0 || Double.isInfinite(v)) {
        continue;
      }
      String text = EcmaNumber.toString(v);

      BigDecimal written = new BigDecimal(text);
      assertTrue(
          written.stripTrailingZeros().precision()
              <= new BigDecimal(decimal).stripTrailingZeros().precision(),
          () -> decimal + " came back as " + text);
      assertEquals(ReferenceJcs.number(v), text, decimal);
    }
  }

  @Test
  void theSmallestSubnormalsMatchTheReference() {
    for (long bits = 1; bits <= 20_000; bits++) {
      double v = Double.longBitsToDouble(bits);
      assertEquals(ReferenceJcs.number(v), EcmaNumber.toString(v), () -> Double.toString(v));
    }
  }

  @Test
  void everyPowerOfTwoAndItsNeighboursMatchTheReference() {
    // Where the neighbouring doubles are spaced unevenly: the hardest case for shortest digits.
    for (long exponent = 0; exponent < 0x7ff; exponent++) {
      for (long delta = -2; delta <= 2; delta++) {
        long bits = (exponent << 52) + delta;
        double v = Double.longBitsToDouble(bits);
        if (bits > 0 && Double.isFinite(v)) {
          assertEquals(ReferenceJcs.number(v), EcmaNumber.toString(v), () -> Double.toString(v));
          assertEquals(ReferenceJcs.number(-v), EcmaNumber.toString(-v));
        }
      }
    }
  }

  @Test
  void everyPowerOfTenAndItsNeighboursMatchTheReference() {
    for (int e = -323; e <= 308; e++) {
      double p = Double.parseDouble("1e" + e);
      for (double v : new double[] {Math.nextDown(p), p, Math.nextUp(p)}) {
        assertEquals(ReferenceJcs.number(v), EcmaNumber.toString(v), () -> Double.toString(v));
      }
    }
  }

  @Test
  void integersAroundTwoToTheFiftyThirdAreWrittenWithTheirShortestDigits() {
    long twoTo53 = 1L << 53;
    for (long n = twoTo53 - 1000; n <= twoTo53 + 1000; n++) {
      double v = n;
      assertEquals(ReferenceJcs.number(v), EcmaNumber.toString(v), () -> Double.toString(v));
    }
  }

  /** Any finite double, from random bits: every exponent is equally likely. */
  static double randomFiniteDouble(Random random) {
    while (true) {
      double v = Double.longBitsToDouble(random.nextLong());
      if (Double.isFinite(v)) {
        return v;
      }
    }
  }

  /**
   * No decimal of one digit less reads back as v, whichever way it is rounded; and of the decimals
   * with as many digits as the text, the text's is the closest to v that reads back.
   */
  static void assertShortestAndClosest(double v, String text) {
    if (v == 0) {
      assertEquals("0", text);
      return;
    }
    BigDecimal written = new BigDecimal(text).abs();
    int digits = written.stripTrailingZeros().precision();
    BigDecimal exact = new BigDecimal(Math.abs(v));
    if (digits > 1) {
      assertNull(
          ReferenceJcs.shortestAt(exact, Math.abs(v), digits - 1),
          () -> text + " has more digits than " + v + " needs");
    }
    BigDecimal closest = ReferenceJcs.shortestAt(exact, Math.abs(v), digits);
    if (closest == null || closest.compareTo(written) != 0) {
      fail(text + " is not the closest " + digits + "-digit decimal to " + v + ": " + closest);
    }
  }

  /** ECMAScript's layout: an exponent exactly outside [1e-6, 1e21), no redundant zeros. */
  static void assertLayout(double v, String text) {
    Matcher m = LAYOUT.matcher(text);
    assertTrue(m.matches(), () -> text + " is not laid out as ECMAScript lays out " + v);
    double magnitude = Math.abs(v);
    boolean exponent = m.group(4) != null;
    assertEquals(
        magnitude != 0 && (magnitude >= 1e21 || magnitude < 1e-6),
        exponent,
        () -> text + " for " + v);
    if (exponent) {
      assertEquals(1, m.group(1).length(), () -> text + " has one digit before the point");
      assertTrue(!m.group(1).equals("0"), () -> text + " starts with a non-zero digit");
    }
    assertEquals(v < 0, text.startsWith("-"), () -> text + " for " + v);
  }
}
