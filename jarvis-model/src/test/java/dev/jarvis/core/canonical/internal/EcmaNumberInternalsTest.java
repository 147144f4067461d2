package dev.jarvis.core.canonical.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The fixed-point shortcuts of the Schubfach implementation, against exact arithmetic. */
@DisplayName("Schubfach internals")
class EcmaNumberInternalsTest {

  private static final BigInteger TWO = BigInteger.TWO;
  private static final BigInteger TEN = BigInteger.TEN;

  @Test
  void floorLog10OfPowersOfTwoIsExactOverEveryDoubleExponent() {
    for (int e = -1200; e <= 1200; e++) {
      // floor(log10(2^e)) = the largest k with 10^k <= 2^e
      assertEquals(largestK(TWO, e, 1, 1), EcmaNumber.flog10pow2(e), "e=" + e);
    }
  }

  @Test
  void floorLog10OfThreeQuartersOfPowersOfTwoIsExactOverEveryDoubleExponent() {
    for (int e = -1200; e <= 1200; e++) {
      assertEquals(largestK(TWO, e, 3, 4), EcmaNumber.flog10threeQuartersPow2(e), "e=" + e);
    }
  }

  @Test
  void floorLog2OfPowersOfTenIsExactOverEveryTableExponent() {
    for (int e = -400; e <= 400; e++) {
      // floor(log2(10^e)) = the largest r with 2^r <= 10^e
      int r = (int) Math.floor(e * (Math.log(10) / Math.log(2))) + 2;
      while (!lessOrEqual(TWO, r, TEN, e)) {
        r--;
      }
      assertEquals(r, EcmaNumber.flog2pow10(e), "e=" + e);
    }
  }

  @Test
  void theTableHoldsTenToTheMinusKRoundedUpTo126Bits() {
    for (int k = -324; k <= 292; k++) {
      long[] g = EcmaNumber.g(k);
      BigInteger gk = BigInteger.valueOf(g[0]).shiftLeft(63).or(BigInteger.valueOf(g[1]));
      int r = EcmaNumber.flog2pow10(-k) - 125;
      // (g - 1) 2^r <= 10^-k < g 2^r, checked as integers scaled by 2^-r and 10^k
      BigInteger lhs = gk.subtract(BigInteger.ONE);
      BigInteger[] sides = scale(r, -k);
      assertEquals(126, gk.bitLength(), "k=" + k);
      assertEquals(true, lhs.multiply(sides[0]).compareTo(sides[1]) <= 0, "k=" + k);
      assertEquals(true, gk.multiply(sides[0]).compareTo(sides[1]) > 0, "k=" + k);
    }
  }

  /** The largest k with 10^k <= (num/den) base^e. */
  private static int largestK(BigInteger base, int e, int num, int den) {
    int k = (int) Math.floor(e * Math.log10(2) + Math.log10((double) num / den)) + 2;
    while (!(tenPowLessOrEqual(k, base, e, num, den))) {
      k--;
    }
    return k;
  }

  /** 10^k <= (num/den) 2^e, as den 10^k 2^-e <= num over integers. */
  private static boolean tenPowLessOrEqual(int k, BigInteger two, int e, int num, int den) {
    BigInteger left = BigInteger.valueOf(den);
    BigInteger right = BigInteger.valueOf(num);
    left = k >= 0 ? left.multiply(TEN.pow(k)) : left;
    right = k < 0 ? right.multiply(TEN.pow(-k)) : right;
    right = e >= 0 ? right.multiply(two.pow(e)) : right;
    left = e < 0 ? left.multiply(two.pow(-e)) : left;
    return left.compareTo(right) <= 0;
  }

  /** 2^r <= 10^e over integers. */
  private static boolean lessOrEqual(BigInteger two, int r, BigInteger ten, int e) {
    BigInteger left = r >= 0 ? two.pow(r) : BigInteger.ONE;
    BigInteger right = e >= 0 ? ten.pow(e) : BigInteger.ONE;
    left = e < 0 ? left.multiply(ten.pow(-e)) : left;
    right = r < 0 ? right.multiply(two.pow(-r)) : right;
    return left.compareTo(right) <= 0;
  }

  /**
   * For x 2^r compared with 10^e: the factors {a, b} such that x 2^r ? 10^e iff x a ? b, both
   * integers.
   */
  private static BigInteger[] scale(int r, int e) {
    BigInteger a = r >= 0 ? TWO.pow(r) : BigInteger.ONE;
    BigInteger b = e >= 0 ? TEN.pow(e) : BigInteger.ONE;
    if (r < 0) {
      b = b.multiply(TWO.pow(-r));
    }
    if (e < 0) {
      a = a.multiply(TEN.pow(-e));
    }
    return new BigInteger[] {a, b};
  }
}
