package dev.jarvis.core.canonical.internal;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;

/**
 * ECMAScript {@code Number.prototype.toString} for finite doubles, as RFC 8785 section 3.2.2.3
 * requires: the shortest decimal that reads back as the same double (the closest one if several are
 * that short, the even one on a tie), laid out as ECMAScript does ({@code 1e+21}, {@code 0.000001},
 * {@code 1e-7}, {@code -0} as {@code 0}, integers below 1e21 without exponent).
 *
 * <p>Why not something that exists: Java 17's {@link Double#toString(double)} is not shortest (it
 * prints {@code 2.0E-3} and, for some values, one digit too many). jackson-core's bundled Schubfach
 * port ({@code com.fasterxml.jackson.core.io.schubfach.DoubleToDecimal}) follows the Java 19
 * specification, which is shortest except that, where one digit would do, it picks the closest
 * decimal of one <em>or two</em> digits: it prints {@code 4.9E-324} where ECMAScript needs {@code
 * 5e-324}. It is also an internal class of another library.
 *
 * <p>So this class is an own implementation of Raffaello Giulietti's Schubfach algorithm ("The
 * Schubfach way to render doubles", 2020; the algorithm behind Java 19's {@code Double.toString}),
 * with the two changes that make it ECMAScript's: the one-digit-shorter candidate is always
 * considered (Java only considers it from three digits on), and the tiniest subnormals get no extra
 * digit. The 126-bit approximations of the powers of ten that the algorithm multiplies with are
 * computed exactly with {@link BigInteger} when the class is loaded, rather than copied from a
 * table. The digits are then laid out by the rules of ECMA-262 {@code Number::toString}.
 *
 * <p>Verified by the RFC 8785 and ES6 vectors, and by tests that compare with a brute-force {@code
 * BigDecimal} search on a million random doubles.
 */
public final class EcmaNumber {

  /** The longest text {@link #write} produces: {@code -0.0000012345678901234567} is 25. */
  public static final int MAX_LENGTH = 25;

  private static final int P = 53;
  private static final int Q_MIN = -1074;
  private static final long C_MIN = 1L << (P - 1);
  private static final long T_MASK = C_MIN - 1;
  private static final int BQ_MASK = 0x7ff;
  private static final long MASK_63 = (1L << 63) - 1;
  private static final int K_MIN = -324;
  private static final int K_MAX = 292;

  /** For each k in [K_MIN, K_MAX]: g1 then g0, where g = g1 2^63 + g0 = floor(10^-k 2^-r) + 1. */
  private static final long[] G = powersOfTen();

  private static final long[] POW10 = new long[19];

  static {
    long p = 1;
    for (int i = 0; i < POW10.length; i++) {
      POW10[i] = p;
      p *= 10;
    }
  }

  private EcmaNumber() {}

  /**
   * The ECMAScript text of a finite double.
   *
   * @throws IllegalArgumentException if {@code v} is NaN or infinite
   */
  public static String toString(double v) {
    byte[] b = new byte[MAX_LENGTH];
    int n = write(v, b, 0);
    return new String(b, 0, n, StandardCharsets.ISO_8859_1);
  }

  /**
   * Writes the ECMAScript text of {@code v} as ASCII bytes at {@code pos}; the array must have
   * {@link #MAX_LENGTH} bytes free there.
   *
   * @return the position after the last byte written
   * @throws IllegalArgumentException if {@code v} is NaN or infinite
   */
  public static int write(double v, byte[] buf, int pos) {
    long bits = Double.doubleToRawLongBits(v);
    long t = bits & T_MASK;
    int bq = (int) (bits >>> (P - 1)) & BQ_MASK;
    if (bq == BQ_MASK) {
      throw new IllegalArgumentException("not a finite number: " + v);
    }
    if (bq == 0 && t == 0) {
      buf[pos] = '0'; // both +0 and -0
      return pos + 1;
    }
    if (bits < 0) {
      buf[pos++] = '-';
    }
    if (bq != 0) {
      int mq = -Q_MIN + 1 - bq; // -q, where v = c 2^q
      long c = C_MIN | t;
      if (0 <= mq && mq < P) {
        long f = c >> mq;
        if (f << mq == c) {
          // An integer below 2^53: its own digits are the shortest ones.
          return writeDigits(f, digitCount(f), buf, pos);
        }
      }
      return toDecimal(-mq, c, buf, pos);
    }
    return toDecimal(Q_MIN, t, buf, pos);
  }

  /**
   * Writes a long exactly as ECMAScript writes the double of the same value, for {@code |v| <=
   * 2^53} (where both agree).
   */
  public static int writeSafeInteger(long v, byte[] buf, int pos) {
    if (v < 0) {
      buf[pos++] = '-';
      v = -v;
    }
    return writeDigits(v, digitCount(v), buf, pos);
  }

  /** Schubfach proper: v = c 2^q with c > 0. Writes the shortest, closest decimal laid out. */
  private static int toDecimal(int q, long c, byte[] buf, int pos) {
    int out = (int) c & 1; // an odd c rounds away its interval's ends
    long cb = c << 2;
    long cbr = cb + 2;
    long cbl;
    int k;
    if (c != C_MIN || q == Q_MIN) {
      cbl = cb - 2; // regular spacing of the neighbouring doubles
      k = flog10pow2(q);
    } else {
      cbl = cb - 1; // at a power of two the lower neighbour is half as far
      k = flog10threeQuartersPow2(q);
    }
    int h = q + flog2pow10(-k) + 2;
    int gi = (k - K_MIN) << 1;
    long g1 = G[gi];
    long g0 = G[gi + 1];

    long vb = rop(g1, g0, cb << h);
    long vbl = rop(g1, g0, cbl << h);
    long vbr = rop(g1, g0, cbr << h);

    long s = vb >> 2;
    if (s >= 10) {
      // One digit shorter: u' = 10 floor(s / 10) and w' = u' + 10, in units of 10^k. At most one
      // of them is in the rounding interval; if one is, it is shorter than any other candidate.
      long sp10 = 10 * (s / 10);
      long tp10 = sp10 + 10;
      boolean upin = vbl + out <= sp10 << 2;
      boolean wpin = (tp10 << 2) + out <= vbr;
      if (upin != wpin) {
        return layout(upin ? sp10 : tp10, k, buf, pos);
      }
    }
    // u = s and w = s + 1, in units of 10^k: at least one is in the rounding interval.
    boolean uin = vbl + out <= s << 2;
    long w = s + 1;
    boolean win = (w << 2) + out <= vbr;
    if (uin != win) {
      return layout(uin ? s : w, k, buf, pos);
    }
    // Both: the closer to v, the even one on a tie.
    long cmp = vb - ((s + w) << 1);
    return layout(cmp < 0 || cmp == 0 && (s & 1) == 0 ? s : w, k, buf, pos);
  }

  /** Round to odd of cp g 2^-127, where g = g1 2^63 + g0. */
  private static long rop(long g1, long g0, long cp) {
    long x1 = Math.multiplyHigh(g0, cp);
    long y0 = g1 * cp;
    long y1 = Math.multiplyHigh(g1, cp);
    long z = (y0 >>> 1) + x1;
    long vbp = y1 + (z >>> 63);
    return vbp | ((z & MASK_63) + MASK_63) >>> 63;
  }

  /**
   * Lays out f 10^e (f > 0) as ECMA-262 Number::toString does, with k digits and the decimal point
   * after n of them.
   */
  private static int layout(long f, int e, byte[] buf, int pos) {
    while (f % 10 == 0) {
      f /= 10;
      e++;
    }
    int k = digitCount(f);
    int n = e + k;
    if (k <= n && n <= 21) {
      pos = writeDigits(f, k, buf, pos);
      for (int i = k; i < n; i++) {
        buf[pos++] = '0';
      }
      return pos;
    }
    if (0 < n && n <= 21) {
      writeDigits(f, k, buf, pos);
      System.arraycopy(buf, pos + n, buf, pos + n + 1, k - n);
      buf[pos + n] = '.';
      return pos + k + 1;
    }
    if (-6 < n && n <= 0) {
      buf[pos++] = '0';
      buf[pos++] = '.';
      for (int i = n; i < 0; i++) {
        buf[pos++] = '0';
      }
      return writeDigits(f, k, buf, pos);
    }
    int end = writeDigits(f, k, buf, pos);
    if (k > 1) {
      System.arraycopy(buf, pos + 1, buf, pos + 2, k - 1);
      buf[pos + 1] = '.';
      end++;
    }
    buf[end++] = 'e';
    int x = n - 1;
    if (x < 0) {
      buf[end++] = '-';
      x = -x;
    } else {
      buf[end++] = '+';
    }
    return writeDigits(x, digitCount(x), buf, end);
  }

  private static int digitCount(long f) {
    int k = 1;
    while (k < POW10.length && f >= POW10[k]) {
      k++;
    }
    return k;
  }

  private static int writeDigits(long f, int k, byte[] buf, int pos) {
    int end = pos + k;
    for (int i = end - 1; i >= pos; i--) {
      long d = f / 10;
      buf[i] = (byte) ('0' + (int) (f - d * 10));
      f = d;
    }
    return end;
  }

  /** floor(log10(2^e)), for |e| <= 5456721. */
  static int flog10pow2(int e) {
    return (int) (e * 661_971_961_083L >> 41);
  }

  /** floor(log10(3/4 2^e)), for |e| <= 5456721. */
  static int flog10threeQuartersPow2(int e) {
    return (int) (e * 661_971_961_083L - 274_743_187_321L >> 41);
  }

  /** floor(log2(10^e)), for |e| <= 1838394. */
  static int flog2pow10(int e) {
    return (int) (e * 913_124_641_741L >> 38);
  }

  /** The table g(k), k in [K_MIN, K_MAX], computed exactly; see the class comment. */
  private static long[] powersOfTen() {
    long[] g = new long[(K_MAX - K_MIN + 1) << 1];
    for (int k = K_MIN; k <= K_MAX; k++) {
      int e = -k; // 10^e = beta 2^r with 2^125 <= beta < 2^126
      int r = flog2pow10(e) - 125;
      BigInteger beta;
      if (e >= 0) {
        BigInteger p = BigInteger.TEN.pow(e);
        beta = r >= 0 ? p.shiftRight(r) : p.shiftLeft(-r);
      } else {
        beta = BigInteger.ONE.shiftLeft(-r).divide(BigInteger.TEN.pow(-e));
      }
      BigInteger gk = beta.add(BigInteger.ONE);
      if (gk.bitLength() != 126) {
        throw new AssertionError("g(" + k + ") out of range");
      }
      int i = (k - K_MIN) << 1;
      g[i] = gk.shiftRight(63).longValue();
      g[i + 1] = gk.longValue() & MASK_63;
    }
    return g;
  }

  /** For tests: g1 and g0 of k. */
  static long[] g(int k) {
    int i = (k - K_MIN) << 1;
    return new long[] {G[i], G[i + 1]};
  }
}
