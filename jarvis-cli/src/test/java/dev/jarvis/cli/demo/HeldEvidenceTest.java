package dev.jarvis.cli.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.client.audit.AuditCheck;
import dev.jarvis.client.audit.AuditReport;
import dev.jarvis.client.audit.AuditReport.Verdict;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.host.reference.ReferenceHost;
import dev.jarvis.host.reference.ReferenceHostConfig;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.samples.SampleRecords;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The demo's offline audit of what it holds, on a walkthrough run against a host without {@code
 * event-log}: it passes what it can check and says what it could not, and a doctored event, an end
 * of chain the demo did not write, or a manifest of another root each fail their check.
 */
class HeldEvidenceTest {

  private static final String TOKEN = "held-evidence";
  private static final String WHY = "The host does not declare the capability 'event-log'.";
  private static ReferenceHost host;
  private static AgentWalkthrough.Result result;

  @BeforeAll
  static void walkOnAHostWithoutEventLog() {
    host =
        ReferenceHost.start(
            ReferenceHostConfig.demo(TOKEN)
                .policy(SampleRecords.policy())
                .host(b -> b.capabilities(List.of(JarvisHeaders.CURSOR_HEADERS_CAPABILITY)))
                .build());
    AtomicInteger ids = new AtomicInteger();
    try (JarvisClient client =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(host.baseUri().toString())
                .hostAuth("Bearer " + TOKEN)
                .actorId(AgentWalkthrough.Cast.reference().agentActor())
                .build())) {
      result =
          new AgentWalkthrough(
                  client,
                  AgentWalkthrough.Cast.reference(),
                  Clock.systemUTC(),
                  () -> "held" + ids.incrementAndGet(),
                  new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))
              .run();
    }
  }

  @AfterAll
  static void stop() {
    host.close();
  }

  @Test
  void whatTheDemoHoldsPassesAndTheChainAndTheHostsRefsAreNamedAsNotChecked() {
    AuditReport report = HeldEvidence.audit(result, WHY);

    assertTrue(report.passed(), report.toJson().toString());
    assertEquals(2, report.eventCount());
    assertEquals(List.of("chain", "manifest_refs"), HeldEvidence.couldNotCheck(report));
    AuditReport.Finding chain = report.finding(AuditCheck.CHAIN);
    assertTrue(chain.detail().startsWith(HeldEvidence.COULD_NOT_CHECK), chain.detail());
    assertTrue(chain.detail().contains(WHY), chain.detail());
    for (AuditCheck passed :
        List.of(AuditCheck.REVISION, AuditCheck.LAST_EVENT_HASH, AuditCheck.MANIFEST_ROOT)) {
      assertEquals(Verdict.PASSED, report.finding(passed).verdict(), passed.wireName());
    }
  }

  @Test
  void anEventOfTheDemosThatNoLongerHashesFailsTheChainAtItsIndex() throws Exception {
    List<JarvisEvent> doctored = new ArrayList<>(result.appended());
    // A copy: the walkthrough's own events stay as the host stored them for the other tests.
    JarvisEvent fetch =
        JarvisJson.mapper()
            .treeToValue(JarvisJson.mapper().valueToTree(doctored.get(0)), JarvisEvent.class);
    fetch.getPayload().summary("Fetched the vendor docs twice.");
    doctored.set(0, fetch);
    AuditReport report =
        HeldEvidence.audit(
            new AgentWalkthrough.Result(
                result.workSessionId(), result.manifest(), result.finalCursor(), doctored),
            WHY);

    assertFalse(report.passed());
    AuditReport.Finding chain = report.finding(AuditCheck.CHAIN);
    assertEquals(Verdict.FAILED, chain.verdict(), chain.detail());
    assertEquals(fetch.getSequence() - 1, chain.index().orElseThrow());
    assertEquals(Optional.of(ProtocolErrorId.INVALID_EVENT_HASH), chain.errorId());
  }

  @Test
  void aWorkSessionThatEndsPastTheDemosCompletionFailsRevisionLastHashAndRoot() {
    ChainCursor moved = result.finalCursor().advance("sha256:" + "0".repeat(64));
    AuditReport report =
        HeldEvidence.audit(
            new AgentWalkthrough.Result(
                result.workSessionId(), result.manifest(), moved, result.appended()),
            WHY);

    assertFalse(report.passed());
    assertEquals(Verdict.FAILED, report.finding(AuditCheck.REVISION).verdict());
    assertEquals(Verdict.FAILED, report.finding(AuditCheck.LAST_EVENT_HASH).verdict());
    assertEquals(Verdict.FAILED, report.finding(AuditCheck.MANIFEST_ROOT).verdict());
  }
}
