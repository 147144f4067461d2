package dev.jarvis.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.host.WorkSessionGovernance;
import dev.jarvis.samples.SampleRecords;
import dev.jarvis.testkit.JarvisHostStub;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The suite reads the host it checks: against a host holding a Policy unlike the SDK's sample one
 * it takes every action it sends from the Policy given, and skips, saying why, the checks whose
 * kind of action that Policy does not offer; a correct host never fails for the suite's choice of
 * action.
 */
// Its tests run hosts of their own and mostly wait on them: four at a time.
@org.junit.jupiter.api.parallel.Execution(org.junit.jupiter.api.parallel.ExecutionMode.CONCURRENT)
class ConformanceUnderAnyPolicyTest {

  @TempDir Path dir;

  private final Fixtures.Captured out = new Fixtures.Captured();
  private final Fixtures.Captured err = new Fixtures.Captured();
  private JarvisHostStub host;

  @AfterEach
  void stop() {
    if (host != null) {
      host.close();
    }
  }

  /** A correct host holding {@code policy}, assigned to every human Worker. */
  private String hostHolding(ObjectNode policy) {
    host =
        JarvisHostStub.builder()
            .clock(Fixtures.CLOCK)
            .ids(Fixtures.counting("host-"))
            .policy(policy)
            .governance(
                WorkSessionGovernance.NONE.assignPolicyToEveryHuman(policy.path("id").asText()))
            .failOnReceivedViolations(false)
            .build()
            .start();
    return host.baseUrl();
  }

  private ConformanceConfig.Builder config(String baseUrl) {
    return ConformanceConfig.live(URI.create(baseUrl), "t")
        .clock(Fixtures.CLOCK)
        .ids(Fixtures.counting("c"))
        .progress(out.stream);
  }

  private int cli(String... args) {
    return ConformanceCommand.run(
        args, out.stream, err.stream, Fixtures.CLOCK, Fixtures.counting("cli-"));
  }

  private static Set<String> skippedNames(ConformanceReport report) {
    return report.skipped().stream().map(CheckResult::name).collect(Collectors.toSet());
  }

  @Test
  void aHostHoldingAnotherPolicyPassesWhenTheSuiteIsGivenThatPolicy() throws Exception {
    String url = hostHolding(Policies.json(Policies.SOURCE_COLLECTION));
    Path file = Files.writeString(dir.resolve("policy.json"), Policies.SOURCE_COLLECTION);

    int code = cli("--base-url", url, "--token", "t", "--policy-file", file.toString());

    assertEquals(0, code, err.text() + out.text());
    assertFalse(out.text().contains("FAIL  "), out.text());
    assertTrue(
        out.text()
            .contains(
                "PASS  policy: an allow decision for an action the Policy does not name is refused"
                    + " with policy_denied"),
        out.text());
    assertTrue(
        out.text()
            .contains(
                "SKIP  policy: an allow decision for an action the Policy denies is refused with"
                    + " policy_denied — Policy policy-source-collection denies no action by a"
                    + " rule"),
        out.text());
    assertTrue(
        out.text()
            .contains(
                "NOTE  The suite took its actions from Policy policy-source-collection as given"),
        out.text());
  }

  @Test
  void theActionsSentAreThePolicysOwnInTheScopeItAllowsThemIn() {
    String url = hostHolding(Policies.json(Policies.SOURCE_COLLECTION));

    ConformanceReport report =
        ConformanceSuite.run(config(url).policy(Policies.read(Policies.SOURCE_COLLECTION)).build());

    assertEquals(List.of(), report.failures());
    assertEquals(
        "with fetch_external_source in scope:source-collection at low risk (allow by"
            + " /allowed_actions/0)",
        report
            .result(
                "a second agent action under one allow decision is refused with"
                    + " missing_policy_decision")
            .orElseThrow()
            .detail());
    assertTrue(
        report
            .result(
                "an agent's own narrow decision for a review-required action is refused with"
                    + " review_required")
            .orElseThrow()
            .detail()
            .startsWith("with publish_answer"));
    assertEquals(
        Set.of(
            "an allow decision for an action the Policy denies is refused with policy_denied",
            "an allow decision declaring a risk class the Policy escalates is refused with"
                + " review_required",
            "createWorkSession by the human under a Policy that does not govern it is refused"
                + " with missing_policy",
            "createWorkSession by the agent under a Policy that does not govern the human is"
                + " refused as under the human's own, with unauthorized_actor",
            "an event signed with the key of an Actor that must sign is appended",
            "an unsigned event of an Actor that must sign is refused with unauthorized_actor",
            "an event signed by another key under the Actor's key id is refused with"
                + " unauthorized_actor",
            EventStreamChecks.EXPIRY),
        skippedNames(report));
  }

  @Test
  void underExecuteWithReviewTheChecksThatNeedAnAllowedActionAreSkippedNotFailed() {
    String url = hostHolding(Policies.json(Policies.EVERYTHING_REVIEWED));

    ConformanceReport report =
        ConformanceSuite.run(
            config(url).policy(Policies.read(Policies.EVERYTHING_REVIEWED)).build());

    assertEquals(List.of(), report.failures());
    CheckResult second =
        report
            .result(
                "a second agent action under one allow decision is refused with"
                    + " missing_policy_decision")
            .orElseThrow();
    assertTrue(second.skipped(), second.line());
    assertTrue(second.detail().contains("execute_with_review"), second.line());
    // The checks that walk a Request through its review run with an action the Policy reviews.
    CheckResult approval =
        report
            .result(
                "an agent action under a new decision naming an approved Request is refused with"
                    + " approval_scope_mismatch")
            .orElseThrow();
    assertTrue(approval.passed(), approval.line());
    assertTrue(approval.detail().contains("(review_required by /autonomy_level)"), approval.line());
    assertTrue(
        report
            .result(
                "an allow decision for an action the Policy denies is refused with policy_denied")
            .orElseThrow()
            .passed());
  }

  @Test
  void aPolicyKnownByItsIdAloneSkipsTheChecksThatNeedItsRulesSayingSo() {
    String url = hostHolding(Policies.json(Policies.SOURCE_COLLECTION));

    ConformanceReport report =
        ConformanceSuite.run(config(url).policyId("policy-source-collection").build());

    assertEquals(List.of(), report.failures());
    CheckResult permitted =
        report
            .result(
                "a second agent action under one allow decision is refused with"
                    + " missing_policy_decision")
            .orElseThrow();
    assertTrue(permitted.skipped(), permitted.line());
    assertTrue(permitted.detail().contains("--policy-file"), permitted.line());
    // What holds under every Policy still runs: an action no Policy names is never allowed.
    assertTrue(
        report
            .result(
                "an agent event of an action the Policy does not name, citing no decision, is"
                    + " refused with missing_policy_decision")
            .orElseThrow()
            .passed());
    assertTrue(
        report
            .result("a scoped mutation at the current cursor advances the revision by one")
            .orElseThrow()
            .passed());
    assertTrue(
        report.notes().get(0).contains("knows Policy policy-source-collection by its id only"),
        report.notes().toString());
  }

  @Test
  void anotherPolicyUnderTheSamplesIdFailsOnlyTheAssumptionAndTheFailuresSaySo() {
    ObjectNode other = Policies.json(Policies.SOURCE_COLLECTION);
    other.put("id", SampleRecords.POLICY_ID);
    String url = hostHolding(other);

    ConformanceReport assumed = ConformanceSuite.run(config(url).build());
    // A second run on the same host: ids of its own.
    ConformanceReport given =
        ConformanceSuite.run(
            config(url)
                .ids(Fixtures.counting("second-"))
                .policy(
                    dev.jarvis.core.JarvisJson.mapper()
                        .convertValue(other, dev.jarvis.model.Policy.class))
                .build());

    assertFalse(assumed.failures().isEmpty());
    for (CheckResult failure : assumed.failures()) {
      assertTrue(failure.detail().endsWith("give it with --policy-file)"), failure.line());
    }
    assertEquals(List.of(), given.failures());
  }
}
