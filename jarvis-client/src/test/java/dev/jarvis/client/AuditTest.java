package dev.jarvis.client;

import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.jarvis.client.audit.AuditCheck;
import dev.jarvis.client.audit.AuditReport;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.eventlog.EventPage;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.ContributionRole;
import dev.jarvis.model.ContributionType;
import dev.jarvis.model.ContributorType;
import dev.jarvis.model.EvidenceManifest;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.PolicyActionRequest;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.Request;
import dev.jarvis.model.RiskClass;
import dev.jarvis.model.WorkerType;
import dev.jarvis.testkit.JarvisHostStub;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code client.events} and {@code client.audit} against the stub host (the host kit's engine,
 * which serves the {@code event-log} capability), and against a host that serves a doctored log: a
 * changed payload, a dropped event and a reordered page are each caught, at the first broken index
 * with its {@code error_id}.
 */
class AuditTest {

  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-06-12T18:00:00Z"), ZoneOffset.UTC);
  static final String POLICY = "policy-bounded-001";

  private final AtomicInteger ids = new AtomicInteger();

  /** A completed, exported WorkSession on {@code host}: six events. */
  private record Flow(JarvisClient human, String ws, EvidenceManifest manifest) {}

  private JarvisClient client(String baseUri) {
    return JarvisClient.create(
        JarvisClientOptions.builder()
            .baseUri(baseUri)
            .hostAuth("Bearer test")
            .actorId(JarvisHostStub.ADMIN_ACTOR_ID)
            .clock(CLOCK)
            .idempotencyKeys(() -> "k" + ids.incrementAndGet())
            .build());
  }

  private Flow flow(JarvisHostStub host, boolean export) {
    JarvisClient admin = client(host.baseUri().toString());
    JarvisClient human = admin.as("actor-human-1");
    JarvisClient agent = admin.as("actor-agent-1");
    admin.registerWorker(admin.records().worker("worker-human-1", WorkerType.HUMAN, "reviewer"));
    admin.registerWorker(admin.records().worker("worker-agent-1", WorkerType.AGENT, "assistant"));
    admin.registerActor(admin.records().actor("actor-human-1", "worker-human-1", ActorType.HUMAN));
    admin.registerActor(admin.records().actor("actor-agent-1", "worker-agent-1", ActorType.AGENT));
    String ws =
        human
            .createWorkSession(
                human
                    .records()
                    .workSession(
                        "Answer with reviewed sources.",
                        "worker-human-1",
                        "worker-agent-1",
                        POLICY))
            .getId();
    PolicyActionRequest fetch =
        ProtocolRecords.action(
            "fetch_external_source", "source:vendor-docs", "scope:source-collection");
    PolicyDecision decision =
        agent.recordPolicyDecision(
            ws,
            agent
                .records()
                .policyDecision(
                    ws,
                    POLICY,
                    fetch,
                    RiskClass.MEDIUM,
                    PolicyDecisionResult.REVIEW_REQUIRED,
                    "Needs review.")
                .requestId(agent.records().newId("req")));
    Request request =
        agent.createRequest(
            ws,
            agent
                .records()
                .request(decision, "worker-agent-1", "worker-human-1", Duration.ofHours(1)));
    human.recordReview(
        ws,
        human
            .records()
            .approval(request, "worker-human-1", admin.currentCursor(ws), Duration.ofMinutes(20)));
    JarvisEvent fetched =
        agent.appendJarvisEvent(ws, ProtocolRecords.actionEvent(decision, "source.collected"));
    agent.recordContribution(
        ws,
        agent
            .records()
            .contribution(
                ws,
                ContributorType.AGENT,
                ContributionType.RESEARCH,
                List.of(
                    ProtocolRecords.contributor(
                        "worker-agent-1", agent.actorId(), ContributionRole.AGENT)),
                fetched.getId()));
    human.appendJarvisEvent(ws, ProtocolRecords.completion(ws));
    EvidenceManifest manifest = export ? human.exportEvidenceManifest(ws) : null;
    return new Flow(human, ws, manifest);
  }

  @Test
  void eventsStreamTheWholeChainInChainOrderAsTheHostStoredIt() {
    try (JarvisHostStub host = JarvisHostStub.builder().clock(CLOCK).build()) {
      host.start();
      Flow flow = flow(host, false);
      List<JsonNode> events = flow.human().events(flow.ws()).toList();
      assertEquals(flow.human().getWorkSession(flow.ws()).getRevision(), events.size());
      assertEquals(Optional.empty(), EventChain.verify(events));
      assertEquals(host.events(flow.ws()).toString(), events.toString());
      EventPage first = flow.human().eventPage(flow.ws(), new EventLog.PageRequest(0, 2));
      assertEquals(2, first.events().size());
      assertTrue(first.hasMore());
    }
  }

  @Test
  void anAuditOfAnHonestHostPassesEveryCheckWithTheManifestAndSkipsTheManifestWithoutIt() {
    try (JarvisHostStub host = JarvisHostStub.builder().clock(CLOCK).build()) {
      host.start();
      Flow flow = flow(host, true);
      AuditReport full = flow.human().audit(flow.ws(), flow.manifest());
      assertTrue(full.passed(), full.toJson().toString());
      full.findings().stream()
          .filter(f -> f.check() != AuditCheck.SIGNATURES)
          .forEach(f -> assertEquals(AuditReport.Verdict.PASSED, f.verdict(), f.toString()));
      // No keys given, and no event signed: nothing to verify (SignedEventsTest verifies them).
      assertEquals(AuditReport.Verdict.SKIPPED, full.finding(AuditCheck.SIGNATURES).verdict());
      AuditReport plain = flow.human().audit(flow.ws());
      assertTrue(plain.passed());
      assertEquals(AuditReport.Verdict.SKIPPED, plain.finding(AuditCheck.MANIFEST_ROOT).verdict());
      assertEquals(List.of(), host.receivedViolations());
    }
  }

  @Test
  void anAsynchronousAuditFindsWhatTheBlockingOneFinds() {
    try (JarvisHostStub host = JarvisHostStub.builder().clock(CLOCK).build()) {
      host.start();
      Flow flow = flow(host, false);
      AuditReport async = flow.human().auditAsync(flow.ws()).join();
      assertEquals(flow.human().audit(flow.ws()), async);
      assertTrue(async.passed());
    }
  }

  @Test
  void aHostWithoutTheEventLogCapabilityIsATypedRefusalNotAGenericOne() {
    try (JarvisHostStub host =
        JarvisHostStub.builder()
            .clock(CLOCK)
            .capabilities(JarvisHeaders.CURSOR_HEADERS_CAPABILITY)
            .build()) {
      host.start();
      Flow flow = flow(host, false);
      JarvisUnsupportedCapabilityException e =
          assertThrows(
              JarvisUnsupportedCapabilityException.class, () -> flow.human().audit(flow.ws()));
      assertEquals(ProtocolErrorId.UNSUPPORTED_CAPABILITY, e.errorId());
      assertEquals("event-log", e.capability());
    }
  }

  static Stream<Arguments> doctorings() {
    return Stream.of(
        Arguments.of(
            "a changed payload",
            (UnaryOperator<List<JsonNode>>)
                events -> {
                  // A value rewritten in place, still a valid payload: only the hash tells.
                  ObjectNode payload = (ObjectNode) events.get(2).path("payload");
                  payload.put("object_id", payload.path("object_id").asText() + "-rewritten");
                  return events;
                },
            2,
            ProtocolErrorId.INVALID_EVENT_HASH),
        Arguments.of(
            "a dropped event",
            (UnaryOperator<List<JsonNode>>)
                events -> {
                  events.remove(2);
                  return events;
                },
            2,
            ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH),
        Arguments.of(
            "a reordered page",
            (UnaryOperator<List<JsonNode>>)
                events -> {
                  events.add(1, events.remove(2));
                  return events;
                },
            1,
            ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("doctorings")
  void anAuditCatchesADoctoredLogAtItsFirstBrokenIndex(
      String what, UnaryOperator<List<JsonNode>> doctor, int index, ProtocolErrorId errorId) {
    try (JarvisHostStub honest = JarvisHostStub.builder().clock(CLOCK).build()) {
      honest.start();
      Flow flow = flow(honest, false);
      List<JsonNode> events = new ArrayList<>();
      flow.human().events(flow.ws()).forEach(e -> events.add(e.deepCopy()));
      WireMockServer doctored =
          new WireMockServer(options().bindAddress("127.0.0.1").dynamicPort());
      doctored.start();
      try {
        doctored.stubFor(
            get(urlPathEqualTo("/work-sessions/" + flow.ws()))
                .willReturn(
                    ClientFixture.protocolResponse(
                        200, honest.workSession(flow.ws()).orElseThrow().toString())));
        doctored.stubFor(
            get(urlPathEqualTo("/work-sessions/" + flow.ws() + "/events"))
                .willReturn(
                    ClientFixture.protocolResponse(
                        200,
                        new EventPage(flow.ws(), doctor.apply(events), false)
                            .toJson()
                            .toString())));
        AuditReport report =
            client("http://127.0.0.1:" + doctored.port()).as("actor-human-1").audit(flow.ws());
        assertFalse(report.passed(), what);
        AuditReport.Finding chain = report.finding(AuditCheck.CHAIN);
        assertEquals(AuditReport.Verdict.FAILED, chain.verdict(), chain.toString());
        assertEquals(index, chain.index().orElseThrow(), chain.toString());
        assertEquals(Optional.of(errorId), chain.errorId(), chain.toString());
        assertEquals(report.firstFailure(), Optional.of(chain));
      } finally {
        doctored.stop();
      }
    }
  }
}
