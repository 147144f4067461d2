package dev.jarvis.conformance;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.ProtocolOperations;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.samples.SampleRecords;
import dev.jarvis.testkit.FaultInjectingProxy;
import dev.jarvis.testkit.FaultInjectingProxy.Kind;
import dev.jarvis.testkit.JarvisHostStub;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The conformance suite's idempotency checks, done again through {@link FaultInjectingProxy}: the
 * suite judges a replay it sends on purpose; here the network makes the client send it, after a
 * 503, a dropped connection, an answer lost after the host applied the request, or an answer held
 * back past the client's timeout. Every fault is injected on the first attempt of every request;
 * the client retries with the same key and body, as the protocol asks, and the host must have
 * applied the request exactly once and answer the retry with its first response. The suite itself
 * also runs through the proxy, to show the proxy changes nothing a host is judged on.
 */
// Its tests run hosts of their own and mostly wait on them: four at a time.
@org.junit.jupiter.api.parallel.Execution(org.junit.jupiter.api.parallel.ExecutionMode.CONCURRENT)
class RetriesThroughFaultsTest {

  private static final String HUMAN_WORKER = "worker-human-1";
  private static final String AGENT_WORKER = "worker-agent-1";
  private static final String HUMAN = "actor-human-1";
  private static final String AGENT = "actor-agent-1";

  /**
   * The client's timeout on a first attempt, the one the proxy faults: it holds a delayed answer
   * back three times as long after the host answered, so that attempt always times out. Where a
   * first attempt meets no fault and still times out (a slow machine), it is retried like any
   * other, which these tests allow.
   */
  private static final Duration FIRST_ATTEMPT_TIMEOUT = Duration.ofMillis(200);

  /**
   * The timeout of a retry and of every other exchange, which must be answered: it only bounds a
   * broken host. A short one would fail the test whenever a slow machine took longer to answer.
   */
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  @RegisterExtension
  final JarvisHostStub stub =
      JarvisHostStub.builder()
          .clock(Fixtures.CLOCK)
          .ids(Fixtures.counting("host-"))
          .failOnReceivedViolations(false)
          .build();

  @TempDir Path reports;

  private final AtomicInteger keys = new AtomicInteger();
  private final HttpClient http =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  @Test
  void theSuitePassesEveryCheckThroughAProxyThatInjectsNoFault() {
    try (FaultInjectingProxy proxy = FaultInjectingProxy.to(stubRoot()).faultRate(0).start()) {
      ConformanceReport report =
          ConformanceSuite.run(
              ConformanceConfig.live(proxy.baseUri(), "test-token")
                  .clock(Fixtures.CLOCK)
                  .ids(Fixtures.counting("c"))
                  .reportDir(reports)
                  .progress(new Fixtures.Captured().stream)
                  .build());
      assertEquals(List.of(), report.failures());
      assertEquals(0, proxy.injectedTotal());
      assertTrue(proxy.forwarded() > 40, proxy.forwarded() + " requests forwarded");
    }
  }

  @Test
  void aRunWhoseAnswersAreLostFailsTheirChecksNamingTheTransportAndStillJudgesEveryCheck() {
    try (FaultInjectingProxy proxy =
        FaultInjectingProxy.to(stubRoot())
            .kinds(Set.of(Kind.LOST_AFTER))
            .faultRate(0.05)
            .seed(20261201)
            .start()) {
      ConformanceReport report =
          ConformanceSuite.run(
              ConformanceConfig.live(proxy.baseUri(), "test-token")
                  .clock(Fixtures.CLOCK)
                  .ids(Fixtures.counting("lossy"))
                  .progress(new Fixtures.Captured().stream)
                  .build());
      assertTrue(proxy.injectedTotal() > 0, "the seed loses some answers");
      assertTrue(report.results().size() > 40, report.results().size() + " checks judged");
      assertTrue(
          report.failures().stream().anyMatch(f -> f.detail().contains("transport failure")),
          () -> report.failures().toString());
    }
  }

  @ParameterizedTest(name = "after {0}")
  @EnumSource(Kind.class)
  void aDecisionRetriedWithItsKeyIsRecordedOnceAndTheRetryGetsTheFirstAnswer(Kind fault)
      throws Exception {
    givenParticipants();
    String ws = "ws-decision-" + fault;
    createWorkSession(stubRoot(), ws);
    ChainCursor before = cursor(ws);
    try (FaultInjectingProxy proxy = alwaysFirst(fault)) {
      Call call =
          call(
              "recordPolicyDecision",
              ws,
              AGENT,
              before,
              SampleRecords.policyDecision("pd-" + fault, ws, AGENT, now()));
      Answer answer = untilAnswered(proxy.baseUri(), call);

      assertEquals(201, answer.status(), answer.text());
      assertEquals(1, proxy.injectedTotal(), "one fault, then the retry got through");
      assertExactlyOneEffect(ws, before, "policy_decision.recorded");
      Answer replay = send(stubRoot(), call);
      assertEquals(answer.status(), replay.status());
      assertArrayEquals(answer.body(), replay.body(), "a later replay answers the same bytes");
    }
  }

  @ParameterizedTest(name = "after {0}")
  @EnumSource(Kind.class)
  void anEventRetriedWithItsKeyIsAppendedOnceAndTheChainVerifies(Kind fault) throws Exception {
    givenParticipants();
    String ws = "ws-event-" + fault;
    createWorkSession(stubRoot(), ws);
    ChainCursor before = cursor(ws);
    try (FaultInjectingProxy proxy = alwaysFirst(fault)) {
      ObjectNode event =
          EventChain.next(
              before, SampleRecords.eventDraft("evt-" + fault, ws, HUMAN, "note.recorded", now()));
      Answer answer =
          untilAnswered(proxy.baseUri(), call("appendJarvisEvent", ws, HUMAN, before, event));

      assertEquals(201, answer.status(), answer.text());
      assertExactlyOneEffect(ws, before, "note.recorded");
      assertEquals(event.path("event_hash"), stub.events(ws).get(1).path("event_hash"));
    }
  }

  @ParameterizedTest(name = "after {0}")
  @EnumSource(Kind.class)
  void aWorkSessionCreationRetriedWithItsKeyHasOneGenesis(Kind fault) throws Exception {
    givenParticipants();
    String ws = "ws-genesis-" + fault;
    try (FaultInjectingProxy proxy = alwaysFirst(fault)) {
      Answer answer = createWorkSession(proxy.baseUri(), ws);

      assertEquals(201, answer.status(), answer.text());
      assertEquals(1, stub.events(ws).size());
      assertEquals(Optional.empty(), EventChain.verify(stub.events(ws)));
    }
  }

  // --- the client side of a retry ---

  /** The stub's root with its trailing slash, against which operation paths resolve. */
  private URI stubRoot() {
    return URI.create(stub.baseUrl() + "/");
  }

  /** A proxy faulting the first attempt of every request with {@code fault}, never the second. */
  private FaultInjectingProxy alwaysFirst(Kind fault) {
    return FaultInjectingProxy.to(stubRoot())
        .kinds(Set.of(fault))
        .faultRate(1)
        .maxFaultsPerRequest(1)
        .delay(FIRST_ATTEMPT_TIMEOUT.multipliedBy(3))
        .seed(20261201)
        .start();
  }

  /** One logical call: its headers, idempotency key included, are the same on every attempt. */
  private record Call(
      String operationId, String pathId, Map<String, String> headers, byte[] body) {}

  /** An HTTP answer. */
  private record Answer(int status, byte[] body) {
    String text() {
      return new String(body, StandardCharsets.UTF_8);
    }
  }

  /**
   * Sends the call until the host answers with anything but 503, at most three attempts: a
   * transport failure or a timeout is retried with the same key and body, as a client must. Only
   * the first attempt has the short timeout.
   */
  private Answer untilAnswered(URI base, Call call) throws InterruptedException {
    IOException last = null;
    for (int attempt = 1; attempt <= 3; attempt++) {
      try {
        Answer answer = send(base, call, attempt == 1 ? FIRST_ATTEMPT_TIMEOUT : TIMEOUT);
        if (answer.status() != 503) {
          return answer;
        }
      } catch (IOException e) {
        last = e;
      }
    }
    throw new AssertionError("no answer after three attempts", last);
  }

  private Answer send(URI base, Call call) throws IOException, InterruptedException {
    return send(base, call, TIMEOUT);
  }

  private Answer send(URI base, Call call, Duration timeout)
      throws IOException, InterruptedException {
    String path = ProtocolOperations.byId(call.operationId()).path();
    if (call.pathId() != null) {
      path = path.replaceAll("\\{[a-z_]+}", call.pathId());
    }
    HttpRequest.Builder request =
        HttpRequest.newBuilder(base.resolve(path.substring(1)))
            .timeout(timeout)
            .header("Authorization", "Bearer test-token")
            .header("Content-Type", "application/json")
            .method(
                ProtocolOperations.byId(call.operationId()).httpMethod(),
                HttpRequest.BodyPublishers.ofByteArray(call.body()));
    call.headers().forEach(request::header);
    HttpResponse<byte[]> response =
        http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    return new Answer(response.statusCode(), response.body());
  }

  private Call call(
      String operationId, String workSessionId, String actor, ChainCursor cursor, JsonNode body) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put(JarvisHeaders.PROTOCOL_VERSION, JarvisSpec.PROTOCOL_VERSION);
    headers.put(JarvisHeaders.ACTOR_ID, actor);
    headers.put(JarvisHeaders.IDEMPOTENCY_KEY, "retry-key-" + keys.incrementAndGet());
    headers.put(JarvisHeaders.REQUEST_TIMESTAMP, now());
    if (ProtocolOperations.byId(operationId).operationClass().needsCursor()) {
      headers.put(JarvisHeaders.EXPECTED_WORK_SESSION_REVISION, Long.toString(cursor.revision()));
      headers.put(JarvisHeaders.PREVIOUS_EVENT_HASH, cursor.lastEventHash());
    }
    return new Call(
        operationId, workSessionId, headers, body.toString().getBytes(StandardCharsets.UTF_8));
  }

  // --- the host side ---

  private void givenParticipants() {
    stub.givenWorker(SampleRecords.worker(HUMAN_WORKER, "human"))
        .givenWorker(SampleRecords.worker(AGENT_WORKER, "agent"))
        .givenActor(SampleRecords.actor(HUMAN, HUMAN_WORKER, "human", "2026-06-12T17:00:00Z"))
        .givenActor(SampleRecords.actor(AGENT, AGENT_WORKER, "agent", "2026-06-12T17:00:00Z"));
  }

  private Answer createWorkSession(URI base, String ws) throws InterruptedException {
    return untilAnswered(
        base,
        call(
            "createWorkSession",
            null,
            HUMAN,
            ChainCursor.GENESIS,
            SampleRecords.workSession(ws, HUMAN, HUMAN_WORKER, AGENT_WORKER, now())));
  }

  private ChainCursor cursor(String ws) {
    JsonNode last = stub.events(ws).get(stub.events(ws).size() - 1);
    return new ChainCursor(last.path("sequence").asLong(), last.path("event_hash").asText());
  }

  private void assertExactlyOneEffect(String ws, ChainCursor before, String eventType) {
    List<ObjectNode> events = stub.events(ws);
    assertEquals(before.revision() + 1, events.size(), "exactly one event after the retries");
    assertEquals(eventType, events.get(events.size() - 1).path("type").asText());
    assertEquals(Optional.empty(), EventChain.verify(events));
  }

  private static String now() {
    return RequestTimestamp.format(Fixtures.CLOCK.instant());
  }
}
