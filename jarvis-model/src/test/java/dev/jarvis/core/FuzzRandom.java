package dev.jarvis.core;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * The random choices the property tests are built from, over one seeded {@link SplittableRandom}:
 * the same seed draws the same samples on every machine.
 *
 * <p>Whole numbers come out as one of the edge values (zero, one, minus one, the type's least and
 * greatest) one time in ten, because uniform draws over the whole range almost never hit them and
 * they are where code breaks most.
 */
public final class FuzzRandom {

  private final SplittableRandom random;

  FuzzRandom(SplittableRandom random) {
    this.random = random;
  }

  /** A whole number from {@code min} to {@code max}, both included. */
  public int between(int min, int max) {
    return (int) random.nextLong(min, (long) max + 1);
  }

  public boolean coin() {
    return random.nextBoolean();
  }

  /** True one time in {@code n}. */
  public boolean oneIn(int n) {
    return random.nextInt(n) == 0;
  }

  /** The index of one of {@code weights}, each picked in proportion to its weight. */
  public int weighted(int... weights) {
    int total = 0;
    for (int w : weights) {
      total += w;
    }
    int roll = random.nextInt(total);
    for (int i = 0; i < weights.length; i++) {
      roll -= weights[i];
      if (roll < 0) {
        return i;
      }
    }
    throw new IllegalStateException("unreachable: the weights sum to " + total);
  }

  public <T> T oneOf(List<T> choices) {
    return choices.get(random.nextInt(choices.size()));
  }

  public <E extends Enum<E>> E oneOf(Class<E> type) {
    E[] constants = type.getEnumConstants();
    return constants[random.nextInt(constants.length)];
  }

  /** Any int, the edge values more often than chance would pick them. */
  public int anyInt() {
    return oneIn(10)
        ? oneOf(List.of(0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE))
        : random.nextInt();
  }

  /** Any long, the edge values more often than chance would pick them. */
  public long anyLong() {
    return oneIn(10)
        ? oneOf(List.of(0L, 1L, -1L, Long.MIN_VALUE, Long.MAX_VALUE))
        : random.nextLong();
  }

  /** Text of {@code 0} to {@code maxLength} characters from {@code first} to {@code last}. */
  public String chars(char first, char last, int maxLength) {
    return chars(first, last, 0, maxLength);
  }

  /**
   * Text of {@code minLength} to {@code maxLength} characters from {@code first} to {@code last}.
   */
  public String chars(char first, char last, int minLength, int maxLength) {
    char[] text = new char[between(minLength, maxLength)];
    for (int i = 0; i < text.length; i++) {
      text[i] = (char) between(first, last);
    }
    return new String(text);
  }

  /** Text of up to {@code maxLength} characters, each one of {@code alphabet}'s. */
  public String charsOf(String alphabet, int maxLength) {
    char[] text = new char[between(0, maxLength)];
    for (int i = 0; i < text.length; i++) {
      text[i] = alphabet.charAt(random.nextInt(alphabet.length()));
    }
    return new String(text);
  }

  /** {@code minLength} to {@code maxLength} bytes of any value. */
  public byte[] bytes(int minLength, int maxLength) {
    byte[] bytes = new byte[between(minLength, maxLength)];
    random.nextBytes(bytes);
    return bytes;
  }

  /** Up to {@code maxSize} items, each drawn by {@code item}. */
  public <T> List<T> listOf(int maxSize, Function<FuzzRandom, T> item) {
    int size = between(0, maxSize);
    List<T> items = new ArrayList<>(size);
    for (int i = 0; i < size; i++) {
      items.add(item.apply(this));
    }
    return items;
  }
}
