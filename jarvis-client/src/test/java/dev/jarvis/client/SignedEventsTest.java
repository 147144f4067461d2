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
import dev.jarvis.core.error.JarvisProtocolException;
import dev.jarvis.core.eventlog.EventPage;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.core.signature.ActorKey;
import dev.jarvis.core.signature.ActorKeys;
import dev.jarvis.core.signature.EventSignature;
import dev.jarvis.core.signature.SigningKey;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.JarvisEventPayload;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.RiskClass;
import dev.jarvis.model.WorkerType;
import dev.jarvis.testkit.JarvisHostStub;
import java.security.KeyPair;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A client holding its Actors' signing keys signs every event it appends, against a host that
 * requires it; its audit verifies the signatures with the Actors' public keys, and catches a
 * doctored signature in a served log.
 */
class SignedEventsTest {

  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-06-12T18:00:00Z"), ZoneOffset.UTC);
  static final String HUMAN = "actor-human-1";
  static final String AGENT = "actor-agent-1";

  static final KeyPair HUMAN_PAIR = SigningKey.generateKeyPair();
  static final KeyPair AGENT_PAIR = SigningKey.generateKeyPair();
  static final SigningKey HUMAN_KEY = new SigningKey("key-human-1", HUMAN_PAIR.getPrivate());
  static final SigningKey AGENT_KEY = new SigningKey("key-agent-1", AGENT_PAIR.getPrivate());
  static final ActorKeys KEYS =
      ActorKeys.of(
          List.of(
              ActorKey.of("key-human-1", HUMAN, HUMAN_PAIR.getPublic()),
              ActorKey.of("key-agent-1", AGENT, AGENT_PAIR.getPublic())),
          Set.of(HUMAN, AGENT));

  private final AtomicInteger ids = new AtomicInteger();

  private JarvisClient client(String baseUri, boolean signing) {
    JarvisClientOptions.Builder options =
        JarvisClientOptions.builder()
            .baseUri(baseUri)
            .hostAuth("Bearer test")
            .actorId(JarvisHostStub.ADMIN_ACTOR_ID)
            .clock(CLOCK)
            .idempotencyKeys(() -> "k" + ids.incrementAndGet())
            .actorKeys(KEYS);
    if (signing) {
      options.signingKey(HUMAN, HUMAN_KEY).signingKey(AGENT, AGENT_KEY);
    }
    return JarvisClient.create(options.build());
  }

  private static JarvisHostStub host() {
    JarvisHostStub host = JarvisHostStub.builder().clock(CLOCK).actorKeys(KEYS).build();
    host.start();
    return host;
  }

  /** Registers the two Workers and Actors and creates a WorkSession; returns its id. */
  private static String session(JarvisClient admin) {
    admin.registerWorker(admin.records().worker("worker-human-1", WorkerType.HUMAN, "reviewer"));
    admin.registerWorker(admin.records().worker("worker-agent-1", WorkerType.AGENT, "assistant"));
    admin.registerActor(admin.records().actor(HUMAN, "worker-human-1", ActorType.HUMAN));
    admin.registerActor(admin.records().actor(AGENT, "worker-agent-1", ActorType.AGENT));
    JarvisClient human = admin.as(HUMAN);
    return human
        .createWorkSession(
            human
                .records()
                .workSession(
                    "Summarise.", "worker-human-1", "worker-agent-1", "policy-bounded-001"))
        .getId();
  }

  private static JarvisEvent note(String ws) {
    return ProtocolRecords.event(
        "note.recorded", JarvisEventPayload.ObjectTypeEnum.WORK_SESSION, ws, "noted");
  }

  /** The human notes, the agent summarises under an allow decision, the human completes. */
  private static void work(JarvisClient admin, String ws) {
    JarvisClient human = admin.as(HUMAN);
    JarvisClient agent = admin.as(AGENT);
    human.appendJarvisEvent(ws, note(ws));
    PolicyDecision decision =
        agent.recordPolicyDecision(
            ws,
            agent
                .records()
                .policyDecision(
                    ws,
                    "policy-bounded-001",
                    ProtocolRecords.action("summarize", "source:notes", "scope:notes"),
                    RiskClass.LOW,
                    PolicyDecisionResult.ALLOW,
                    "Allowed by the Policy."));
    agent.appendJarvisEvent(ws, ProtocolRecords.actionEvent(decision, "summary.written"));
    human.appendJarvisEvent(ws, ProtocolRecords.completion(ws));
  }

  @Test
  void aSigningClientsEventsAreAcceptedByAHostThatRequiresSignaturesAndAuditAsVerified() {
    try (JarvisHostStub host = host()) {
      JarvisClient admin = client(host.baseUri().toString(), true);
      String ws = session(admin);

      work(admin, ws);

      List<ObjectNode> signed =
          host.events(ws).stream().filter(e -> e.has("actor_signature")).toList();
      assertEquals(3, signed.size(), "the three appended events, not the host's own");
      assertEquals(
          List.of("key-human-1", "key-agent-1", "key-human-1"),
          signed.stream().map(e -> e.path("signing_key_ref").asText()).toList());
      AuditReport report = admin.as(HUMAN).audit(ws);
      assertTrue(report.passed(), report.toJson().toString());
      AuditReport.Finding signatures = report.finding(AuditCheck.SIGNATURES);
      assertEquals(AuditReport.Verdict.PASSED, signatures.verdict());
      assertTrue(signatures.detail().startsWith("3 signed events verified"), signatures.detail());
      assertEquals(List.of(), host.receivedViolations());
    }
  }

  @Test
  void aClientWithoutTheActorsKeyIsRefusedByAHostThatRequiresIt() {
    try (JarvisHostStub host = host()) {
      JarvisClient unsigned = client(host.baseUri().toString(), false);
      String ws = session(unsigned);

      JarvisProtocolException refused =
          assertThrows(
              JarvisProtocolException.class,
              () -> unsigned.as(HUMAN).appendJarvisEvent(ws, note(ws)));

      assertEquals(ProtocolErrorId.UNAUTHORIZED_ACTOR, refused.errorId());
      // Positive control: the same client holding the key appends it.
      JarvisClient signing = client(host.baseUri().toString(), true);
      assertEquals(
          "key-human-1", signing.as(HUMAN).appendJarvisEvent(ws, note(ws)).getSigningKeyRef());
    }
  }

  @Test
  void aSignatureInTheCallersDraftIsReplacedByTheKeysSignatureOfTheBuiltHash() {
    try (JarvisHostStub host = host()) {
      JarvisClient admin = client(host.baseUri().toString(), true);
      String ws = session(admin);
      JarvisEvent draft =
          note(ws).actorSignature("ed25519:made-before-the-hash").signingKeyRef("x");

      JarvisEvent stored = admin.as(HUMAN).appendJarvisEvent(ws, draft);

      assertEquals("key-human-1", stored.getSigningKeyRef());
      assertTrue(
          EventSignature.verifies(
              stored.getEventHash(), stored.getActorSignature(), HUMAN_PAIR.getPublic()));
    }
  }

  @Test
  void anAuditCatchesASignatureDoctoredInTheServedLogAtItsIndex() {
    try (JarvisHostStub honest = host()) {
      JarvisClient admin = client(honest.baseUri().toString(), true);
      String ws = session(admin);
      work(admin, ws);
      List<JsonNode> events = new ArrayList<>();
      honest.events(ws).forEach(e -> events.add(e.deepCopy()));
      // The agent's signed action re-signed by another key under the agent's key id: the chain
      // still holds (the hash leaves the signature out), only the signature check can tell.
      int index = 3;
      ObjectNode doctored = (ObjectNode) events.get(index);
      assertEquals("key-agent-1", doctored.path("signing_key_ref").asText());
      doctored.put(
          "actor_signature",
          EventSignature.signatureOf(
              doctored.path("event_hash").asText(), SigningKey.generateKeyPair().getPrivate()));
      WireMockServer served = new WireMockServer(options().bindAddress("127.0.0.1").dynamicPort());
      served.start();
      try {
        served.stubFor(
            get(urlPathEqualTo("/work-sessions/" + ws))
                .willReturn(
                    ClientFixture.protocolResponse(
                        200, honest.workSession(ws).orElseThrow().toString())));
        served.stubFor(
            get(urlPathEqualTo("/work-sessions/" + ws + "/events"))
                .willReturn(
                    ClientFixture.protocolResponse(
                        200, new EventPage(ws, events, false).toJson().toString())));

        AuditReport report = client("http://127.0.0.1:" + served.port(), false).as(HUMAN).audit(ws);

        assertFalse(report.passed());
        assertEquals(AuditReport.Verdict.PASSED, report.finding(AuditCheck.CHAIN).verdict());
        AuditReport.Finding signatures = report.finding(AuditCheck.SIGNATURES);
        assertEquals(AuditReport.Verdict.FAILED, signatures.verdict(), signatures.toString());
        assertEquals(index, signatures.index().orElseThrow());
        assertEquals(Optional.of(ProtocolErrorId.UNAUTHORIZED_ACTOR), signatures.errorId());
        assertTrue(signatures.detail().contains("bad_signature"), signatures.detail());
      } finally {
        served.stop();
      }
    }
  }

  @Test
  void anAuditWithoutKeysSkipsTheSignatureCheck() {
    try (JarvisHostStub host = host()) {
      JarvisClient admin = client(host.baseUri().toString(), true);
      String ws = session(admin);
      work(admin, ws);
      JarvisClient noKeys =
          JarvisClient.create(
              JarvisClientOptions.builder()
                  .baseUri(host.baseUri().toString())
                  .hostAuth("Bearer test")
                  .actorId(HUMAN)
                  .clock(CLOCK)
                  .build());

      AuditReport report = noKeys.audit(ws);

      assertTrue(report.passed());
      assertEquals(AuditReport.Verdict.SKIPPED, report.finding(AuditCheck.SIGNATURES).verdict());
    }
  }
}
