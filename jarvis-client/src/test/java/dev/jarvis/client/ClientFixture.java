package dev.jarvis.client;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** A WireMock server on a loopback port and a client pointed at it with test clock and keys. */
final class ClientFixture implements AutoCloseable {

  static final Instant START = Instant.parse("2026-06-12T18:00:00Z");
  static final String SESSION = "ws-protocol-001";
  static final String ACTOR = "actor-agent-001";

  final WireMockServer wireMock;
  final TestClock clock = new TestClock(START);
  final List<Duration> waits = new ArrayList<>();
  final AtomicInteger keys = new AtomicInteger();
  final JarvisClient client;

  ClientFixture() {
    this(RetryPolicy.DEFAULT, Duration.ofSeconds(5));
  }

  ClientFixture(RetryPolicy retry, Duration attemptTimeout) {
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
                .attemptTimeout(attemptTimeout)
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

  /** Answers GET of the WorkSession with the fixture record (revision 1). */
  void stubWorkSessionRead() {
    wireMock.stubFor(
        get(urlPathEqualTo("/work-sessions/" + SESSION))
            .willReturn(protocolResponse(200, Records.json("WorkSession").toString())));
  }

  @Override
  public void close() {
    wireMock.stop();
  }
}
