package dev.jarvis.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/** The property runner itself: a red property must say how to see the same red again. */
@DisplayName("Property runner")
class FuzzTest {

  private static final Function<FuzzRandom, Long> SAMPLES = FuzzRandom::anyLong;

  @Test
  void aFailingPropertyNamesTheSeedAndTheTryThatReplayIt(TestInfo test) {
    AtomicInteger calls = new AtomicInteger();
    AssertionError failure =
        assertThrows(
            AssertionError.class,
            () ->
                Fuzz.forAll(test, 10, SAMPLES, sample -> assertTrue(calls.incrementAndGet() < 3)));

    Matcher named =
        Pattern.compile(
                "FuzzTest#(\\w+) failed at try (\\d+) of \\d+, seed (-?\\d+): .*\\n  sample: (-?\\d+)\\n"
                    + "  replay: -Dtest='FuzzTest#\\1' -Djarvis\\.fuzz\\.seed=\\3 -Djarvis\\.fuzz\\.try=\\2")
            .matcher(failure.getMessage());
    assertTrue(named.matches(), failure.getMessage());
    FuzzRandom replayed =
        new FuzzRandom(
            new SplittableRandom(
                Fuzz.trySeed(
                    Long.parseLong(named.group(3)),
                    "FuzzTest#" + named.group(1),
                    Integer.parseInt(named.group(2)))));
    assertEquals(Long.parseLong(named.group(4)), SAMPLES.apply(replayed), "the same sample");
  }

  @Test
  void twoPropertiesOrTwoTriesDrawFromDifferentSeeds() {
    long first = Fuzz.trySeed(Fuzz.DEFAULT_SEED, "A#a", 1);
    assertNotEquals(first, Fuzz.trySeed(Fuzz.DEFAULT_SEED, "A#b", 1));
    assertNotEquals(first, Fuzz.trySeed(Fuzz.DEFAULT_SEED, "A#a", 2));
  }
}
