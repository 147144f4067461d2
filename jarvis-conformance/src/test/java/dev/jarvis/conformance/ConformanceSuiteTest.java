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

class ConformanceSuiteTest {

  @RegisterExtension
  final JarvisHostStub stub =
      JarvisHostStub.builder()
          .clock(Fixtures.CLOCK)
          .ids(Fixtures.counting("host-"))
          // The suite sends bad requests on purpose: judging their refusals is its job.
          .failOnReceivedViolations(false)
          .build();

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
  void theStubHostPassesEveryCheck() {
    ConformanceReport report = runAgainst(stub.baseUrl(), new Fixtures.Captured());
    assertEquals(List.of(), report.failures());
    assertTrue(report.passed());
    assertTrue(report.results().size() > 40, "ran " + report.results().size() + " checks");
    assertTrue(stub.responseDefects().isEmpty());
  }

  @Test
  void progressIsOneLinePerCheckThenTheVerdict() {
    Fixtures.Captured progress = new Fixtures.Captured();
    ConformanceReport report = runAgainst(stub.baseUrl(), progress);
    List<String> lines = progress.text().lines().toList();
    assertEquals("PASS  setup: registerWorker accepts a human Worker", lines.get(0));
    assertEquals(report.results().size() + 2, lines.size());
    assertTrue(lines.get(lines.size() - 2).startsWith("PASSED: "));
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
    assertEquals(report.results().size(), xml.getElementsByTagName("testcase").getLength());
    String md =
        Files.readString(reports.resolve(ConformanceReport.MARKDOWN), StandardCharsets.UTF_8);
    assertTrue(md.contains("**PASS**: " + report.results().size() + " of "));
    assertTrue(md.contains("| PASS | genesis |"));
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
          };
      CheckResult result = report.result(expectedFailure).orElseThrow();
      assertFalse(result.passed(), result.line());
      Document xml =
          DocumentBuilderFactory.newInstance()
              .newDocumentBuilder()
              .parse(reports.resolve(ConformanceReport.JUNIT_XML).toFile());
      assertEquals(report.failures().size(), xml.getElementsByTagName("failure").getLength());
    }
  }
}
