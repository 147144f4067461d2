package dev.jarvis.examples.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.client.JarvisStaleSessionException;
import dev.jarvis.client.RetryPolicy;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.error.JarvisProtocolException;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.ProtocolErrorId;
import dev.jarvis.model.WorkSession;
import dev.jarvis.samples.SampleRecords;
import dev.jarvis.testkit.Fault;
import dev.jarvis.testkit.JarvisHostStub;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * How a test author checks agent code against a Jarvis host without running one: the test kit's
 * stub keeps state like a host, can be told to refuse or fail the next call, and records anything
 * off-spec the client sent.
 */
class AgentStepWithStubHostTest {

  static final Clock CLOCK = Clock.fixed(Instant.parse("2026-06-12T18:00:00Z"), ZoneOffset.UTC);
  static final String NOW = "2026-06-12T18:00:00Z";

  // A fresh stub host on a free loopback port for each test, on the same clock as the client.
  @RegisterExtension JarvisHostStub host = JarvisHostStub.builder().clock(CLOCK).build();

  JarvisClient client;

  @BeforeEach
  void createSession() throws Exception {
    // The stub is a real host: the Workers and Actors must exist, as the admin would register them.
    host.givenWorker(SampleRecords.worker("worker-human-1", "human"))
        .givenWorker(SampleRecords.worker("worker-agent-1", "agent"))
        .givenActor(SampleRecords.actor("actor-human-1", "worker-human-1", "human", NOW))
        .givenActor(SampleRecords.actor("actor-agent-1", "worker-agent-1", "agent", NOW));
    client =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(host.baseUri())
                .hostAuth("Bearer test")
                .actorId("actor-human-1")
                .clock(CLOCK)
                .sleeper(d -> {}) // retries must not make the test wait
                .retryPolicy(new RetryPolicy(2, Duration.ofMillis(10), Duration.ofMillis(10), 1, 0))
                .build());
    client.createWorkSession(
        record(
            WorkSession.class,
            SampleRecords.workSession(
                "ws-1", "actor-human-1", "worker-human-1", "worker-agent-1", NOW)));
  }

  private static <T> T record(Class<T> type, JsonNode json) throws Exception {
    return JarvisJson.mapper().treeToValue(json, type);
  }

  private PolicyDecision decision(String id) throws Exception {
    return record(
        PolicyDecision.class, SampleRecords.policyDecision(id, "ws-1", "actor-agent-1", NOW));
  }

  @Test
  void eachAcceptedStepAdvancesTheSessionByOneRevision() throws Exception {
    client.as("actor-agent-1").recordPolicyDecision("ws-1", decision("pd-1"));
    client.as("actor-agent-1").recordPolicyDecision("ws-1", decision("pd-2"));

    assertEquals(3, host.workSession("ws-1").orElseThrow().path("revision").asInt());
    assertEquals(3, host.events("ws-1").size());
    assertEquals(List.of(), host.receivedViolations());
  }

  @Test
  void aRefusalReachesTheAgentAsATypedError() throws Exception {
    host.refuseNext(ProtocolErrorId.POLICY_DENIED);

    JarvisProtocolException e =
        assertThrows(
            JarvisProtocolException.class,
            () -> client.as("actor-agent-1").recordPolicyDecision("ws-1", decision("pd-1")));

    assertEquals(ProtocolErrorId.POLICY_DENIED, e.errorId());
  }

  @Test
  void aLostConnectionIsRetriedWithTheSameKeyAndAppliedOnce() throws Exception {
    host.faultNext(Fault.CONNECTION_RESET_BY_PEER);

    client.as("actor-agent-1").recordPolicyDecision("ws-1", decision("pd-1"));

    assertEquals(2, host.workSession("ws-1").orElseThrow().path("revision").asInt());
  }

  @Test
  void aSessionThatMovedOnIsReportedNotReplayed() {
    host.refuseNext(ProtocolErrorId.STALE_WORK_SESSION_REVISION);

    assertThrows(
        JarvisStaleSessionException.class,
        () -> client.as("actor-agent-1").recordPolicyDecision("ws-1", decision("pd-1")));
    assertEquals(1, host.workSession("ws-1").orElseThrow().path("revision").asInt());
  }
}
