package dev.jarvis.store.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;

/** The catalogue and the tests agree: every test cites one rule, every rule has a test. */
class StoreRuleCatalogueTest {

  private static List<Method> tests() {
    return Arrays.stream(HostStoresContract.class.getDeclaredMethods())
        .filter(
            m ->
                m.isAnnotationPresent(Test.class) || m.isAnnotationPresent(ParameterizedTest.class))
        .toList();
  }

  private static Optional<StoreRule> cited(Method test) {
    return Optional.ofNullable(test.getAnnotation(DisplayName.class))
        .flatMap(name -> StoreRule.citedBy(name.value()));
  }

  @Test
  void everyTestOfTheContractCitesARuleOfTheCatalogueInItsDisplayName() {
    List<String> uncited =
        tests().stream().filter(m -> cited(m).isEmpty()).map(Method::getName).toList();
    assertEquals(List.of(), uncited);
  }

  @Test
  void everyRuleOfTheCatalogueHasATest() {
    Set<StoreRule> tested =
        tests().stream()
            .map(
                m -> cited(m).orElseThrow(() -> new AssertionError(m.getName() + " cites no rule")))
            .collect(Collectors.toCollection(() -> EnumSet.noneOf(StoreRule.class)));
    assertEquals(EnumSet.allOf(StoreRule.class), tested);
  }

  @Test
  void everyInvocationOfAParameterizedTestCarriesItsRulesId() {
    List<String> unnamed =
        tests().stream()
            .filter(m -> m.isAnnotationPresent(ParameterizedTest.class))
            .filter(
                m ->
                    !m.getAnnotation(ParameterizedTest.class)
                        .name()
                        .startsWith(cited(m).orElseThrow().id() + " "))
            .map(Method::getName)
            .toList();
    assertEquals(List.of(), unnamed);
  }

  @Test
  void ruleIdsAreUnique() {
    assertEquals(
        StoreRule.values().length,
        Arrays.stream(StoreRule.values()).map(StoreRule::id).distinct().count());
  }

  @Test
  void theDocsListEveryRuleWithItsTier() throws Exception {
    Path doc = Path.of("..", "docs", "store-tck.md");
    String text = Files.readString(doc);
    for (StoreRule rule : StoreRule.values()) {
      assertTrue(
          text.contains("| `" + rule.id() + "` | " + rule.tier().name().toLowerCase() + " |"),
          () -> rule.id() + " is not in " + doc + " with its tier");
    }
  }
}
