package dev.jarvis.store.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** A single-instance store is never reported as passing the rules about several instances. */
class StoreTopologyTest {

  private static final Set<StoreRule> SEVERAL =
      Arrays.stream(StoreRule.values())
          .filter(rule -> rule.instances() == StoreRule.Instances.SEVERAL)
          .collect(Collectors.toCollection(() -> EnumSet.noneOf(StoreRule.class)));

  @Test
  void aSingleInstanceStoreHasTheRulesAboutSeveralInstancesSkippedAndPassesTheRest() {
    TckRun run = TckRun.of(InMemoryHostStoresTest.class);
    assertEquals(SEVERAL, run.rules(TckRun.Outcome.SKIPPED), run::toString);
    assertEquals(Set.of(), run.rules(TckRun.Outcome.FAILED), run::toString);
    assertEquals(
        EnumSet.complementOf(EnumSet.copyOf(SEVERAL)),
        run.rules(TckRun.Outcome.PASSED),
        run::toString);
  }

  @Test
  void aSharedStoreWhoseSecondInstanceIsItselfFailsEveryRuleItRuns() {
    TckRun run = TckRun.of(SameObjectAsSecondInstanceContract.class);
    assertTrue(run.rules(TckRun.Outcome.PASSED).isEmpty(), run::toString);
    assertTrue(run.rules(TckRun.Outcome.FAILED).containsAll(SEVERAL), run::toString);
  }
}
