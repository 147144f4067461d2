package dev.jarvis.store.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The TCK meets broken stores: each {@link BrokenStore.Defect} wraps the in-memory store and breaks
 * one rule, and running the TCK against it fails exactly that rule, as {@code BrokenHost} proves
 * the conformance suite.
 */
class BrokenStoresTest {

  @ParameterizedTest(name = "{0}")
  @EnumSource(BrokenStore.Defect.class)
  void aBrokenStoreFailsExactlyTheRuleItBreaks(BrokenStore.Defect defect) {
    BrokenStoreContract.defect = defect;
    TckRun run = TckRun.of(BrokenStoreContract.class);
    assertEquals(Set.of(defect.broken()), run.rules(TckRun.Outcome.FAILED), run::toString);
  }
}
