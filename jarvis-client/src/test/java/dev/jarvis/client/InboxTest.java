package dev.jarvis.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.core.requestinbox.InboxPage;
import dev.jarvis.core.requestinbox.RequestInbox;
import dev.jarvis.model.PolicyActionRequest;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.Request;
import dev.jarvis.model.RiskClass;
import dev.jarvis.samples.SampleRecords;
import dev.jarvis.testkit.JarvisHostStub;
import dev.jarvis.testkit.StubClock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code client.inbox()} against the stub host on loopback: the human reads the Requests waiting on
 * it across its WorkSessions, pages by cursor, filters by status, waits by long poll for a new one;
 * an agent is refused; a host without {@code request-inbox} is an unsupported capability; and a
 * host that answers another human's Request, or more than asked for, is off-spec.
 */
class InboxTest {

  static final String HUMAN = "actor-human-1";
  static final String AGENT = "actor-agent-1";
  static final String POLICY = SampleRecords.POLICY_ID;

  final StubClock clock = StubClock.at("2026-06-12T18:00:00Z");
  JarvisHostStub stub;
  JarvisClient agent;
  JarvisClient human;

  void start(String... capabilities) {
    JarvisHostStub.Builder builder = JarvisHostStub.builder().clock(clock);
    if (capabilities.length > 0) {
      builder.capabilities(capabilities);
    }
    stub = builder.build().start();
    stub.givenWorker(SampleRecords.worker("worker-human-1", "human"))
        .givenWorker(SampleRecords.worker("worker-agent-1", "agent"))
        .givenActor(SampleRecords.actor(HUMAN, "worker-human-1", "human", "2026-06-12T17:00:00Z"))
        .givenActor(SampleRecords.actor(AGENT, "worker-agent-1", "agent", "2026-06-12T17:00:00Z"));
    agent =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(stub.baseUri())
                .hostAuth("Bearer test")
                .actorId(AGENT)
                .clock(clock)
                .build());
    human = agent.as(HUMAN);
  }

  @AfterEach
  void everyRequestSentWasOneAHostAccepts() {
    if (agent != null) {
      agent.close();
    }
    if (stub != null) {
      stub.close();
      assertEquals(List.of(), stub.responseDefects());
    }
  }

  private String session() {
    return human
        .createWorkSession(
            human.records().workSession("Answer.", "worker-human-1", "worker-agent-1", POLICY))
        .getId();
  }

  private Request ask(String ws) {
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
    return agent.createRequest(
        ws,
        agent.records().request(decision, "worker-agent-1", "worker-human-1", Duration.ofHours(1)));
  }

  private static List<String> ids(InboxPage page) {
    return page.requests().stream().map(r -> r.path("id").asText()).toList();
  }

  @Test
  void theHumanReadsThePendingRequestsOfAllItsWorkSessionsAPageAtATime() {
    start();
    Request first = ask(session());
    Request second = ask(session());
    InboxPage all = human.inbox();
    assertEquals(List.of(first.getId(), second.getId()), ids(all));
    assertFalse(all.hasMore());
    InboxPage one = human.inbox(RequestInbox.Query.pending().withLimit(1));
    assertEquals(List.of(first.getId()), ids(one));
    assertTrue(one.hasMore());
    InboxPage next =
        human.inbox(RequestInbox.Query.pending().withLimit(1).startingAfter(one.nextAfter()));
    assertEquals(List.of(second.getId()), ids(next));
    assertEquals(List.of(first, second), all.records());
  }

  @Test
  void anAnsweredRequestLeavesThePendingInboxAndReadsUnderItsStatus() {
    start();
    String ws = session();
    Request asked = ask(ws);
    stub.human(HUMAN).deny(ws, asked.getId());
    assertEquals(List.of(), human.inbox().requests());
    InboxPage denied = human.inbox(new RequestInbox.Query(Set.of("denied"), 0, 10, Duration.ZERO));
    assertEquals(List.of(asked.getId()), ids(denied));
  }

  @Test
  void aLongPollAnswersWithTheNextRequestAsSoonAsItComes() throws Exception {
    start();
    String ws = session();
    long after = human.inbox().nextAfter();
    CompletableFuture<InboxPage> waiting =
        human.inboxAsync(
            RequestInbox.Query.pending().startingAfter(after).waiting(Duration.ofSeconds(20)));
    Request asked = ask(ws);
    InboxPage page = waiting.get(20, TimeUnit.SECONDS);
    assertEquals(List.of(asked.getId()), ids(page));
  }

  @Test
  void anAgentHasNoInbox() {
    start();
    ask(session());
    JarvisRefusalException refused = assertThrows(JarvisRefusalException.class, agent::inbox);
    assertEquals(dev.jarvis.model.ProtocolErrorId.UNAUTHORIZED_ACTOR, refused.errorId());
  }

  @Test
  void aHostWithoutTheCapabilityIsAnUnsupportedCapability() {
    start(JarvisHeaders.CURSOR_HEADERS_CAPABILITY, JarvisHeaders.EVENT_LOG_CAPABILITY);
    JarvisUnsupportedCapabilityException missing =
        assertThrows(JarvisUnsupportedCapabilityException.class, human::inbox);
    assertEquals(RequestInbox.CAPABILITY, missing.capability());
  }

  @Test
  void aHostThatShowsAnotherHumansRequestOrMoreThanAskedIsOffSpec() {
    start();
    ask(session());
    JsonNode mine = human.inbox().requests().get(0);
    JsonNode theirs =
        ((com.fasterxml.jackson.databind.node.ObjectNode) mine.deepCopy())
            .put("id", "req-theirs")
            .put("target_human_worker_id", "worker-human-2");
    WireMockServer forged = new WireMockServer(WireMockConfiguration.options().dynamicPort());
    forged.start();
    try (JarvisClient client =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(java.net.URI.create(forged.baseUrl() + "/"))
                .hostAuth("Bearer test")
                .actorId(HUMAN)
                .clock(clock)
                .build())) {
      forged.stubFor(
          WireMock.get(WireMock.urlPathEqualTo(RequestInbox.PATH))
              .willReturn(
                  WireMock.okJson(
                          "{\"requests\": ["
                              + mine
                              + ","
                              + theirs
                              + "], \"next_after\": 2, \"has_more\": false}")
                      .withHeader(JarvisHeaders.PROTOCOL_VERSION, "v0.1")));
      JarvisInvalidResponseException twoHumans =
          assertThrows(JarvisInvalidResponseException.class, client::inbox);
      assertEquals("/requests/1/target_human_worker_id", twoHumans.field());
      JarvisInvalidResponseException tooMany =
          assertThrows(
              JarvisInvalidResponseException.class,
              () -> client.inbox(RequestInbox.Query.pending().withLimit(1)));
      assertEquals("/requests", tooMany.field());
    } finally {
      forged.stop();
    }
  }
}
