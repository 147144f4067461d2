package dev.jarvis.core;

import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.junit.jupiter.api.TestInfo;

/**
 * Runs a property: a check over many random samples, each drawn from its own seed so that one
 * failing try can be replayed alone. Plain JUnit Jupiter with a hand-written generator ({@link
 * FuzzRandom}), so that the properties need no property-testing library.
 *
 * <p>CI runs each property with {@link #DEFAULT_SEED} and the tries its test names, so a red build
 * is the same red build on every machine. A long run picks another seed, or more tries for every
 * property, with system properties that Surefire hands to the test JVM:
 *
 * <pre>{@code
 * ./mvnw -B -pl jarvis-model test -Dtest='*PropertyTest' -Djarvis.fuzz.seed=7 -Djarvis.fuzz.tries=100000
 * }</pre>
 *
 * <p>A failure names the property, the seed and the try, and the {@code -D} options that run that
 * one try again. See {@code docs/reliability.md}.
 */
public final class Fuzz {

  /** The seed CI uses: fixed, so that every run tries the same inputs. */
  public static final long DEFAULT_SEED = 20261201L;

  /** System property naming another seed (a long). */
  public static final String SEED_PROPERTY = "jarvis.fuzz.seed";

  /** System property naming the tries of every property, instead of each one's own. */
  public static final String TRIES_PROPERTY = "jarvis.fuzz.tries";

  /** System property naming the one try to run (counted from 1), to replay a failure. */
  public static final String TRY_PROPERTY = "jarvis.fuzz.try";

  /** How much of a failing sample a failure message shows: some are 200,000 characters long. */
  private static final int SHOWN_SAMPLE = 500;

  private Fuzz() {}

  /** A check that may throw whatever the code under test throws: every throw fails the try. */
  @FunctionalInterface
  public interface Check<T> {
    void accept(T sample) throws Exception;
  }

  /**
   * Checks {@code property} on {@code tries} samples of {@code generator} (or as many as {@value
   * #TRIES_PROPERTY} says), stopping at the first failure with an {@link AssertionError} that names
   * the seed and the try.
   */
  public static <T> void forAll(
      TestInfo test, int tries, Function<FuzzRandom, T> generator, Check<T> property) {
    String name =
        test.getTestClass().map(Class::getSimpleName).orElse("?")
            + "#"
            + test.getTestMethod().map(m -> m.getName()).orElse("?");
    long seed = longProperty(SEED_PROPERTY).orElse(DEFAULT_SEED);
    int count = longProperty(TRIES_PROPERTY).map(Math::toIntExact).orElse(tries);
    Optional<Long> only = longProperty(TRY_PROPERTY);
    int first = only.map(Math::toIntExact).orElse(1);
    int last = only.map(Math::toIntExact).orElse(count);
    for (int attempt = first; attempt <= last; attempt++) {
      // The property's name is mixed in so that two properties over the same generator try
      // different samples; the try's number, so that any try can be drawn again without the others.
      FuzzRandom random = new FuzzRandom(new SplittableRandom(trySeed(seed, name, attempt)));
      T sample = null;
      try {
        sample = generator.apply(random);
        property.accept(sample);
      } catch (Exception | AssertionError | StackOverflowError e) {
        throw new AssertionError(failure(name, seed, attempt, count, sample, e), e);
      }
    }
  }

  private static String failure(
      String name, long seed, int attempt, int count, Object sample, Throwable e) {
    String shown;
    try {
      shown = String.valueOf(sample);
    } catch (RuntimeException unshowable) {
      // A sample's toString may itself refuse what the property found; the seed still replays it.
      shown = "(cannot be shown: " + unshowable + ")";
    }
    if (shown.length() > SHOWN_SAMPLE) {
      shown = shown.substring(0, SHOWN_SAMPLE) + "… (" + shown.length() + " characters)";
    }
    return String.format(
        "%s failed at try %d of %d, seed %d: %s%n  sample: %s%n  replay: -Dtest='%s' -D%s=%d -D%s=%d",
        name, attempt, count, seed, e, shown, name, SEED_PROPERTY, seed, TRY_PROPERTY, attempt);
  }

  /** SplitMix64's finalizer over the seed, the property and the try: well spread, and stable. */
  static long trySeed(long seed, String property, int attempt) {
    long z = seed + 0x9E3779B97F4A7C15L * (property.hashCode() + 0x100000000L * attempt);
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  private static Optional<Long> longProperty(String key) {
    return Optional.ofNullable(System.getProperty(key))
        .filter(text -> !text.isBlank())
        .map(text -> Long.valueOf(text.trim()));
  }
}
