package dev.jarvis.client;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import dev.jarvis.model.PolicyDecision;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A WireMock server on a loopback port and a client pointed at it with test clock and keys. As a
 * {@code @RegisterExtension} field it answers reads of the fixture WorkSession from the start of
 * each test and closes itself after it.
 */
final class ClientFixture implements AutoCloseable, BeforeEachCallback, AfterEachCallback {

  static final Instant START = Instant.parse("2026-06-12T18:00:00Z");
  static final String SESSION = "ws-protocol-001";
  static final String ACTOR = "actor-agent-001";
  static final String DECISIONS = "/work-sessions/" + SESSION + "/policy-decisions";

  final WireMockServer wireMock;
  final TestClock clock = new TestClock(START);
  final List<Duration> waits = new ArrayList<>();
  final AtomicInteger keys = new AtomicInteger();
  final JarvisClient client;

  ClientFixture() {
    this(RetryPolicy.DEFAULT, Duration.ofSeconds(5));
  }

  ClientFixture(RetryPolicy retry, Duration attemptTimeout) {
    this(retry, attemptTimeout, UnaryOperator.identity());
  }

  /** The default fixture, with options of the test's own on top (policies, executor, sleeper). */
  ClientFixture(UnaryOperator<JarvisClientOptions.Builder> more) {
    this(RetryPolicy.DEFAULT, Duration.ofSeconds(5), more);
  }

  ClientFixture(
      RetryPolicy retry, Duration attemptTimeout, UnaryOperator<JarvisClientOptions.Builder> more) {
    wireMock =
        new WireMockServer(
            options()
                .bindAddress("127.0.0.1")
                .dynamicPort()
                .templatingEnabled(true)
                .globalTemplating(false));
    wireMock.start();
    client =
        JarvisClient.create(
            more.apply(
                    JarvisClientOptions.builder()
                        .baseUri("http://127.0.0.1:" + wireMock.port())
                        .actorId(ACTOR)
                        .hostAuth("Bearer test-token")
                        .clock(clock)
                        .idempotencyKeys(() -> "key-" + keys.incrementAndGet())
                        .retryPolicy(retry)
                        .jitter(() -> 0.0)
                        .sleeper(
                            d -> {
                              waits.add(d);
                              clock.advance(d);
                            })
                        .attemptTimeout(attemptTimeout))
                .build());
  }

  /** A response with the protocol headers a host sends on every answer. */
  static ResponseDefinitionBuilder protocolResponse(int status, String body) {
    return aResponse()
        .withStatus(status)
        .withHeader("Content-Type", "application/json")
        .withHeader("Jarvis-Protocol-Version", "v0.1")
        .withHeader("Jarvis-Host-Capabilities", "none")
        .withBody(body);
  }

  /** Records the fixture's PolicyDecision on the fixture's WorkSession. */
  static JarvisCall<PolicyDecision> recordDecision() {
    return JarvisCall.recordPolicyDecision(SESSION, Records.of(PolicyDecision.class));
  }

  @Override
  public void beforeEach(ExtensionContext context) {
    stubWorkSessionRead();
  }

  @Override
  public void afterEach(ExtensionContext context) {
    close();
  }

  /** Answers GET of the WorkSession with the fixture record (revision 1). */
  void stubWorkSessionRead() {
    wireMock.stubFor(
        get(urlPathEqualTo("/work-sessions/" + SESSION))
            .willReturn(protocolResponse(200, Records.json("WorkSession").toString())));
  }

  /** Answers POST of a PolicyDecision with {@code first}, then with the fixture record. */
  void firstAnswerThenDecision(String path, ResponseDefinitionBuilder first) {
    wireMock.stubFor(
        post(urlPathEqualTo(path))
            .inScenario("retry")
            .whenScenarioStateIs(Scenario.STARTED)
            .willReturn(first)
            .willSetStateTo("recovered"));
    wireMock.stubFor(
        post(urlPathEqualTo(path))
            .inScenario("retry")
            .whenScenarioStateIs("recovered")
            .willReturn(protocolResponse(201, Records.json("PolicyDecision").toString())));
  }

  @Override
  public void close() {
    client.close();
    if (wireMock.isRunning()) {
      wireMock.stop();
    }
  }
}
