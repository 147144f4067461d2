package dev.jarvis.store.tck;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * One run of the TCK against one store's contract class, on the JUnit Platform, as a build runs it:
 * what became of each rule. A rule failed if any of its tests (or test invocations) failed, was
 * skipped if every one was skipped or aborted (an assumption: not applicable), and passed
 * otherwise.
 */
record TckRun(Map<StoreRule, Outcome> outcomes) {

  /** What became of a rule in the run. */
  enum Outcome {
    PASSED,
    FAILED,
    SKIPPED
  }

  /** Runs every test of {@code contract}, a subclass of {@link HostStoresContract}. */
  static TckRun of(Class<? extends HostStoresContract> contract) {
    Map<StoreRule, Set<Outcome>> seen = new EnumMap<>(StoreRule.class);
    TestExecutionListener listener =
        new TestExecutionListener() {
          @Override
          public void executionSkipped(TestIdentifier test, String reason) {
            rule(test).ifPresent(rule -> record(rule, Outcome.SKIPPED));
          }

          @Override
          public void executionFinished(TestIdentifier test, TestExecutionResult result) {
            if (!test.isTest()) {
              return;
            }
            Outcome outcome =
                switch (result.getStatus()) {
                  case SUCCESSFUL -> Outcome.PASSED;
                  case ABORTED -> Outcome.SKIPPED;
                  case FAILED -> Outcome.FAILED;
                };
            rule(test).ifPresent(rule -> record(rule, outcome));
          }

          private void record(StoreRule rule, Outcome outcome) {
            seen.computeIfAbsent(rule, r -> EnumSet.noneOf(Outcome.class)).add(outcome);
          }
        };
    LauncherDiscoveryRequest request =
        LauncherDiscoveryRequestBuilder.request().selectors(selectClass(contract)).build();
    Launcher launcher = LauncherFactory.create();
    launcher.execute(request, listener);
    Map<StoreRule, Outcome> outcomes = new EnumMap<>(StoreRule.class);
    seen.forEach(
        (rule, all) ->
            outcomes.put(
                rule,
                all.contains(Outcome.FAILED)
                    ? Outcome.FAILED
                    : all.contains(Outcome.PASSED) ? Outcome.PASSED : Outcome.SKIPPED));
    return new TckRun(outcomes);
  }

  /** The rule a test of the contract cites in its display name. */
  static Optional<StoreRule> rule(TestIdentifier test) {
    return test.getSource()
        .filter(MethodSource.class::isInstance)
        .map(source -> ((MethodSource) source).getJavaMethod())
        .map(method -> method.getAnnotation(DisplayName.class))
        .flatMap(name -> StoreRule.citedBy(name.value()));
  }

  /** The rules of {@code outcome}. */
  Set<StoreRule> rules(Outcome outcome) {
    Set<StoreRule> rules = EnumSet.noneOf(StoreRule.class);
    outcomes.forEach(
        (rule, o) -> {
          if (o == outcome) {
            rules.add(rule);
          }
        });
    return rules;
  }
}
