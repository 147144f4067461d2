package dev.jarvis.client;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.jarvis.client.ClientFixture.protocolResponse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.jarvis.model.PolicyDecision;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RetryTest {

  private static final String PATH =
      "/work-sessions/" + ClientFixture.SESSION + "/policy-decisions";

  /**
   * Every retry must be answered within it, so it leaves a slow machine room (300 ms did not); the
   * timeout case holds its first answer back far longer still.
   */
  private static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(2);

  @RegisterExtension
  final ClientFixture host = new ClientFixture(RetryPolicy.DEFAULT, ATTEMPT_TIMEOUT);

  private void firstAnswerThenSuccess(ResponseDefinitionBuilder first) {
    host.firstAnswerThenDecision(PATH, first);
  }

  static Stream<Arguments> retryableFailures() {
    return Stream.of(
        Arguments.of(
            "connection reset",
            (Supplier<ResponseDefinitionBuilder>)
                () -> aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER),
            Mode.BLOCKING),
        Arguments.of(
            "empty response",
            (Supplier<ResponseDefinitionBuilder>) () -> aResponse().withFault(Fault.EMPTY_RESPONSE),
            Mode.ASYNC),
        Arguments.of(
            "503",
            (Supplier<ResponseDefinitionBuilder>) () -> aResponse().withStatus(503),
            Mode.BLOCKING),
        Arguments.of(
            "timeout",
            (Supplier<ResponseDefinitionBuilder>)
                () -> protocolResponse(201, "{}").withFixedDelay(60_000),
            Mode.ASYNC));
  }

  @ParameterizedTest(name = "after {0} ({2})")
  @MethodSource("retryableFailures")
  void aRetrySendsTheSameKeyBodyAndCursorWithAFreshTimestamp(
      String why, Supplier<ResponseDefinitionBuilder> failure, Mode mode) {
    firstAnswerThenSuccess(failure.get());

    JarvisResponse<PolicyDecision> response =
        mode.run(
            host.client,
            JarvisCall.recordPolicyDecision(
                ClientFixture.SESSION, Records.of(PolicyDecision.class)));

    assertEquals(201, response.status());
    assertEquals(2, response.attempts());
    List<LoggedRequest> attempts = host.wireMock.findAll(postRequestedFor(urlPathEqualTo(PATH)));
    assertEquals(2, attempts.size());
    for (String header :
        List.of(
            "Jarvis-Idempotency-Key",
            "Jarvis-Expected-WorkSession-Revision",
            "Jarvis-Previous-Event-Hash",
            "Jarvis-Actor-Id")) {
      assertEquals(1, distinct(attempts, header).size(), header + " identical on every attempt");
    }
    assertEquals(attempts.get(0).getBodyAsString(), attempts.get(1).getBodyAsString());
    assertEquals(2, distinct(attempts, "Jarvis-Request-Timestamp").size(), "fresh timestamp");
    assertEquals(List.of(Duration.ofMillis(200)), host.waits);
  }

  private static Set<String> distinct(List<LoggedRequest> requests, String header) {
    return requests.stream().map(r -> r.getHeader(header)).collect(Collectors.toSet());
  }

  @Test
  void retryAfterIsHonouredInsteadOfTheBackoff() {
    firstAnswerThenSuccess(aResponse().withStatus(429).withHeader("Retry-After", "3"));

    host.client.recordPolicyDecision(ClientFixture.SESSION, Records.of(PolicyDecision.class));

    assertEquals(List.of(Duration.ofSeconds(3)), host.waits);
  }

  @Test
  void backoffGrowsAndTheCallGivesUpAsATransportFailure() {
    host.wireMock.stubFor(post(urlPathEqualTo(PATH)).willReturn(aResponse().withStatus(503)));

    JarvisTransportException e =
        assertThrows(
            JarvisTransportException.class,
            () ->
                host.client.recordPolicyDecision(
                    ClientFixture.SESSION, Records.of(PolicyDecision.class)));

    assertEquals(
        List.of(Duration.ofMillis(200), Duration.ofMillis(400), Duration.ofMillis(800)),
        host.waits);
    assertEquals(4, host.wireMock.findAll(postRequestedFor(urlPathEqualTo(PATH))).size());
    assertEquals(true, e.getMessage().contains("503"), e.getMessage());
  }

  @Test
  void theTotalTimeoutBoundsTheRetriesWaitsIncluded() {
    host.wireMock.stubFor(post(urlPathEqualTo(PATH)).willReturn(aResponse().withStatus(503)));
    JarvisClient bounded =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri(host.wireMock.baseUrl())
                .actorId(ClientFixture.ACTOR)
                .clock(host.clock)
                .jitter(() -> 0.0)
                .sleeper(
                    d -> {
                      host.waits.add(d);
                      host.clock.advance(d);
                    })
                .totalTimeout(Duration.ofMillis(500))
                .build());

    assertThrows(
        JarvisTransportException.class,
        () ->
            bounded.recordPolicyDecision(ClientFixture.SESSION, Records.of(PolicyDecision.class)));

    // 200 ms fits in 500 ms; the next wait (400 ms) would not, so the call stops after 2 attempts.
    assertEquals(List.of(Duration.ofMillis(200)), host.waits);
    assertEquals(2, host.wireMock.findAll(postRequestedFor(urlPathEqualTo(PATH))).size());
  }

  @Test
  void aStaleTimestampIsRetriedOnceWithAFreshOneAndNoWait() {
    firstAnswerThenSuccess(
        protocolResponse(400, ProtocolErrorsTest.errorBody("stale_request_timestamp")));

    JarvisResponse<PolicyDecision> response =
        host.client.execute(
            JarvisCall.recordPolicyDecision(
                ClientFixture.SESSION, Records.of(PolicyDecision.class)));

    assertEquals(201, response.status());
    assertEquals(List.of(), host.waits);
  }

  @Test
  void anUnreachableHostIsATransportFailure() {
    int port = host.wireMock.port();
    host.close();
    JarvisClient client =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri("http://127.0.0.1:" + port)
                .actorId(ClientFixture.ACTOR)
                .retryPolicy(RetryPolicy.NONE)
                .build());
    assertThrows(JarvisTransportException.class, () -> client.getWorkSession("ws-1"));
  }
}
