package dev.jarvis.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.testkit.JarvisHostStub;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.w3c.dom.Document;

// Each test runs the whole suite against a host of its own, mostly waiting: four at a time.
@org.junit.jupiter.api.parallel.Execution(org.junit.jupiter.api.parallel.ExecutionMode.CONCURRENT)
class ConformanceSuiteTest {

  /** The stub as a conformance run finds it: the sample Policy, and one of someone else's. */
  @RegisterExtension
  final JarvisHostStub stub =
      JarvisHostStub.builder()
          .clock(Fixtures.CLOCK)
          .ids(Fixtures.counting("host-"))
          .policy(Policies.foreign(FOREIGN))
          // The suite sends bad requests on purpose: judging their refusals is its job.
          .failOnReceivedViolations(false)
          .build();

  static final String FOREIGN = "policy-foreign-001";

  static final String OPENS =
      "createWorkSession by the suite's human under the suite's Policy is accepted";

  @TempDir Path reports;

  private ConformanceReport runAgainst(String baseUrl, Fixtures.Captured progress) {
    return ConformanceSuite.run(config(baseUrl, progress).build());
  }

  private ConformanceConfig.Builder config(String baseUrl, Fixtures.Captured progress) {
    return ConformanceConfig.live(URI.create(baseUrl), "test-token")
        .clock(Fixtures.CLOCK)
        .ids(Fixtures.counting("c"))
        .reportDir(reports)
        .progress(progress.stream);
  }

  @Test
  void aHostThatRequiresSignaturesPassesTheSignatureChecksWhenTheSuiteHoldsTheSignersKey() {
    try (JarvisHostStub signing =
        JarvisHostStub.builder()
            .clock(Fixtures.CLOCK)
            .ids(Fixtures.counting("host-"))
            .actorKeys(Fixtures.SIGNER_KEYS)
            .failOnReceivedViolations(false)
            .build()) {
      signing.start();
      ConformanceReport report =
          ConformanceSuite.run(
              config(signing.baseUrl(), new Fixtures.Captured())
                  .requiredSigner(Fixtures.SIGNER)
                  .build());
      assertEquals(List.of(), report.failures());
      CheckResult refused =
          report
              .result(
                  "an event signed by another key under the Actor's key id is refused with"
                      + " unauthorized_actor")
              .orElseThrow();
      assertTrue(refused.passed(), refused.line());
      assertFalse(refused.line().contains("no required signer given"), refused.line());
    }
  }

  @Test
  void theStubHostPassesEveryCheckGivenAForeignPolicy() {
    ConformanceReport report =
        ConformanceSuite.run(
            config(stub.baseUrl(), new Fixtures.Captured()).foreignPolicyId(FOREIGN).build());
    assertEquals(List.of(), report.failures());
    assertTrue(report.passed());
    assertTrue(report.results().size() > 70, "ran " + report.results().size() + " checks");
    // Only the signatures checks, for which the stub requires no signer, cannot run, and the
    // expiry of a watched Request, which the stub's fixed clock never reaches.
    assertEquals(
        List.of("signatures"),
        report.skipped().stream()
            .filter(c -> !c.name().equals(EventStreamChecks.EXPIRY))
            .map(CheckResult::group)
            .distinct()
            .toList());
    assertTrue(report.result(EventStreamChecks.IN_CHAIN_ORDER).orElseThrow().passed());
    assertTrue(stub.responseDefects().isEmpty());
  }

  @Test
  void withoutAForeignPolicyTheChecksThatNeedOneAreSkippedSayingWhy() {
    ConformanceReport report = runAgainst(stub.baseUrl(), new Fixtures.Captured());
    assertEquals(List.of(), report.failures());
    CheckResult human =
        report
            .result(
                "createWorkSession by the human under a Policy that does not govern it is refused"
                    + " with missing_policy")
            .orElseThrow();
    assertTrue(human.skipped(), human.line());
    assertTrue(human.detail().contains("--foreign-policy"), human.line());
    assertTrue(
        report
            .result(
                "createWorkSession by the agent for a human Worker it does not serve is refused"
                    + " with unauthorized_actor")
            .orElseThrow()
            .passed());
  }

  @Test
  void progressIsOneLinePerCheckThenTheNotesAndTheVerdict() {
    Fixtures.Captured progress = new Fixtures.Captured();
    ConformanceReport report = runAgainst(stub.baseUrl(), progress);
    List<String> lines = progress.text().lines().toList();
    assertEquals("PASS  setup: registerWorker accepts a human Worker", lines.get(0));
    assertEquals(report.results().size() + 3, lines.size());
    assertTrue(
        lines.contains(
            "SKIP  signatures: an unsigned event of an Actor that must sign is refused with"
                + " unauthorized_actor — no required signer given (--signer-actor,"
                + " --signer-key-id, --signer-key)"),
        progress.text());
    assertTrue(
        lines.get(lines.size() - 3).startsWith("NOTE  The suite assumed Policy policy-bounded-001"),
        lines.get(lines.size() - 3));
    assertEquals(
        "PASSED: "
            + (report.results().size() - report.skipped().size())
            + " of "
            + report.results().size()
            + " checks passed, "
            + report.skipped().size()
            + " skipped",
        lines.get(lines.size() - 2));
  }

  @Test
  void theReportsAreAJUnitXmlSuiteAndAMarkdownTable() throws Exception {
    ConformanceReport report = runAgainst(stub.baseUrl(), new Fixtures.Captured());
    Document xml =
        DocumentBuilderFactory.newInstance()
            .newDocumentBuilder()
            .parse(reports.resolve(ConformanceReport.JUNIT_XML).toFile());
    assertEquals("jarvis-conformance", xml.getDocumentElement().getAttribute("name"));
    assertEquals(
        Integer.toString(report.results().size()), xml.getDocumentElement().getAttribute("tests"));
    assertEquals("0", xml.getDocumentElement().getAttribute("failures"));
    assertEquals(
        Integer.toString(report.skipped().size()),
        xml.getDocumentElement().getAttribute("skipped"));
    assertEquals(report.results().size(), xml.getElementsByTagName("testcase").getLength());
    assertEquals(report.skipped().size(), xml.getElementsByTagName("skipped").getLength());
    assertTrue(
        ((org.w3c.dom.Element) xml.getElementsByTagName("skipped").item(0))
            .getAttribute("message")
            .startsWith("no required signer given"));
    assertTrue(
        ((org.w3c.dom.Element) xml.getElementsByTagName("property").item(1))
            .getAttribute("value")
            .startsWith("The suite assumed Policy policy-bounded-001"));
    String md =
        Files.readString(reports.resolve(ConformanceReport.MARKDOWN), StandardCharsets.UTF_8);
    int skipped = report.skipped().size();
    assertTrue(
        md.contains(
            "**PASS**: "
                + (report.results().size() - skipped)
                + " of "
                + report.results().size()
                + " checks passed, "
                + skipped
                + " skipped."),
        md);
    assertTrue(md.contains("- The suite assumed Policy policy-bounded-001"), md);
    assertTrue(md.contains("| PASS | genesis |"));
    assertTrue(md.contains("| SKIP | signatures |"));
    assertTrue(md.indexOf("| SKIP |") < md.indexOf("| PASS |"), "skips before passes");
  }

  @Test
  void theExchangesOfALiveRunCanBeRecordedAndJudgedLaterWithoutTheHost() throws Exception {
    Path recorded = reports.resolve("recorded");
    ConformanceSuite.run(
        ConformanceConfig.live(URI.create(stub.baseUrl()), "secret-token")
            .clock(Fixtures.CLOCK)
            .ids(Fixtures.counting("c"))
            .recordTo(recorded)
            .build());
    long files;
    try (var listing = Files.list(recorded)) {
      files = listing.count();
    }
    assertTrue(files > 40, files + " exchanges");
    String first = Files.readString(recorded.resolve("0001-registerWorker.json"));
    assertFalse(first.contains("secret-token"), "the token is never recorded");

    ConformanceReport offline =
        ConformanceSuite.run(ConformanceConfig.recorded(recorded).clock(Fixtures.CLOCK).build());

    assertEquals(List.of(), offline.failures());
    assertEquals(files, offline.results().size());
  }

  @ParameterizedTest(name = "a host that {0} fails")
  @EnumSource(BrokenHost.Defect.class)
  void aBrokenHostFailsTheChecksOfItsDefect(BrokenHost.Defect defect) throws Exception {
    try (BrokenHost broken = new BrokenHost(defect, Fixtures.CLOCK, Fixtures.counting("broken-"))) {
      ConformanceReport report =
          ConformanceSuite.run(
              config(broken.baseUrl(), new Fixtures.Captured())
                  .requiredSigner(Fixtures.SIGNER)
                  .foreignPolicyId(BrokenHost.FOREIGN_POLICY)
                  .build());
      assertFalse(report.passed());
      String expectedFailure =
          switch (defect) {
            case NO_PROTOCOL_VERSION_HEADER -> "every answer carries Jarvis-Protocol-Version: v0.1";
            case ACCEPTS_MISSING_IDEMPOTENCY_KEY ->
                "recordPolicyDecision without Jarvis-Idempotency-Key is refused with missing_idempotency_key";
            case IGNORES_THE_CURSOR ->
                "a scoped mutation at a stale revision is refused with stale_work_session_revision";
            case WRONG_ERROR_IDS ->
                "createWorkSession at revision 1 is refused with stale_work_session_revision";
            case LETS_NARROW_BYPASS_REVIEW ->
                "an agent's own narrow decision for a review-required action is refused with"
                    + " review_required";
            case ACCEPTS_UNLISTED_ACTIONS ->
                "an agent event of an action the Policy does not name, citing no decision, is"
                    + " refused with missing_policy_decision";
            case DUPLICATES_EVENT_IDS ->
                "an event whose id the WorkSession holds already is refused with"
                    + " invalid_transition";
            case ACCEPTS_BAD_SIGNATURES ->
                "an event signed by another key under the Actor's key id is refused with"
                    + " unauthorized_actor";
            case LETS_AGENTS_CHOOSE_THEIR_HUMAN ->
                "createWorkSession by the agent for a human Worker it does not serve is refused"
                    + " with unauthorized_actor";
            case IGNORES_WHOM_A_POLICY_GOVERNS ->
                "createWorkSession by the human under a Policy that does not govern it is refused"
                    + " with missing_policy";
            case DECLARES_AN_EVENT_LOG_IT_DOES_NOT_SERVE -> CapabilityChecks.EVENT_LOG_SERVED;
            case DECLARES_CURSOR_HEADERS_IT_DOES_NOT_SEND ->
                "a host that declares cursor-headers sends them with every accepted WorkSession"
                    + " mutation";
            case DECLARES_AN_EVENT_STREAM_IT_DOES_NOT_SERVE ->
                EventStreamChecks.EVENT_STREAM_SERVED;
            case STREAMS_EVENT_IDS_NOT_SEQUENCES, STREAMS_ANOTHER_WORK_SESSIONS_EVENTS ->
                EventStreamChecks.IN_CHAIN_ORDER;
            case SHOWS_ANOTHER_HUMANS_REQUESTS -> RequestInboxChecks.NOT_ANOTHERS;
          };
      CheckResult result = report.result(expectedFailure).orElseThrow();
      assertTrue(result.failed(), result.line());
      // Caught for its own defect: the suite opened its WorkSessions and ran every check.
      assertTrue(report.result(OPENS).orElseThrow().passed(), report.result(OPENS).toString());
      if (defect == BrokenHost.Defect.DECLARES_AN_EVENT_LOG_IT_DOES_NOT_SERVE) {
        assertEquals(List.of(result), report.failures(), "one clearly named check fails");
        // The event stream is the event-log read answered live: skipped with it.
        assertEquals(
            List.of("event-log", "event-stream"),
            report.skipped().stream().map(CheckResult::group).distinct().toList());
      } else if (defect == BrokenHost.Defect.DECLARES_AN_EVENT_STREAM_IT_DOES_NOT_SERVE) {
        assertEquals(List.of(result), report.failures(), "one clearly named check fails");
        assertEquals(
            List.of("event-stream"),
            report.skipped().stream().map(CheckResult::group).distinct().toList());
      } else {
        // The host's fixed clock never reaches a Request's expires_at: that check cannot run.
        assertEquals(
            List.of(EventStreamChecks.EXPIRY),
            report.skipped().stream().map(CheckResult::name).toList());
      }
      if (defect == BrokenHost.Defect.SHOWS_ANOTHER_HUMANS_REQUESTS) {
        assertEquals(List.of(result), report.failures(), "one clearly named check fails");
      }
      if (defect == BrokenHost.Defect.DECLARES_CURSOR_HEADERS_IT_DOES_NOT_SEND) {
        assertEquals(List.of(result), report.failures(), "one clearly named check fails");
      }
      if (defect == BrokenHost.Defect.STREAMS_EVENT_IDS_NOT_SEQUENCES
          || defect == BrokenHost.Defect.STREAMS_ANOTHER_WORK_SESSIONS_EVENTS) {
        // Every check that follows a stream fails; nothing else does.
        assertEquals(
            List.of("event-stream"),
            report.failures().stream().map(CheckResult::group).distinct().toList());
      }
      Document xml =
          DocumentBuilderFactory.newInstance()
              .newDocumentBuilder()
              .parse(reports.resolve(ConformanceReport.JUNIT_XML).toFile());
      assertEquals(report.failures().size(), xml.getElementsByTagName("failure").getLength());
    }
  }

  @Test
  void aHostThatDoesNotLetTheSuitesHumanOpenAWorkSessionFailsOneCheckSayingWhatToConfigure() {
    try (JarvisHostStub ungoverned =
        JarvisHostStub.builder()
            .clock(Fixtures.CLOCK)
            .ids(Fixtures.counting("host-"))
            .governance(dev.jarvis.host.WorkSessionGovernance.NONE)
            .failOnReceivedViolations(false)
            .build()) {
      ungoverned.start();
      ConformanceReport report =
          ConformanceSuite.run(config(ungoverned.baseUrl(), new Fixtures.Captured()).build());
      assertEquals(List.of(OPENS), report.failures().stream().map(CheckResult::name).toList());
      String detail = report.failures().get(0).detail();
      assertTrue(detail.contains("missing_policy"), detail);
      assertTrue(detail.contains("--assign-policy policy-bounded-001=*"), detail);
      CheckResult chain =
          report
              .result("a scoped mutation at the current cursor advances the revision by one")
              .orElseThrow();
      assertTrue(chain.skipped(), chain.line());
      assertTrue(chain.detail().contains(OPENS), chain.line());
    }
  }
}
