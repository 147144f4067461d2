package dev.jarvis.client;

import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.jarvis.client.ClientFixture.protocolResponse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jarvis.client.pipeline.OperationMetric;
import dev.jarvis.client.pipeline.OperationMetricsPolicy;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.ProtocolErrorId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class OperationMetricsPolicyTest {

  private static final String PATH = ClientFixture.DECISIONS;
  private static final Duration TICK = Duration.ofMillis(5);

  /** Each reading moves the time on by one tick, so each latency counts readings in between. */
  private final AtomicLong nanos = new AtomicLong();

  private final List<OperationMetric> metrics = new ArrayList<>();

  @RegisterExtension
  final ClientFixture host =
      new ClientFixture(
          b ->
              b.addPerCallPolicy(
                  new OperationMetricsPolicy(() -> nanos.getAndAdd(TICK.toNanos()), metrics::add)));

  @Test
  void eachCallIsRecordedWithItsOperationLatencyAndAttempts() {
    host.wireMock.stubFor(
        post(urlPathEqualTo(PATH))
            .willReturn(protocolResponse(201, Records.json("PolicyDecision").toString())));

    host.client.recordPolicyDecision(ClientFixture.SESSION, Records.of(PolicyDecision.class));

    // One call: the WorkSession re-read the pipeline ran first lies inside its latency, and is no
    // call of its own to a per-call policy.
    assertEquals(
        List.of(
            new OperationMetric(
                "recordPolicyDecision",
                TICK,
                1,
                Optional.empty(),
                Optional.empty(),
                Optional.empty())),
        metrics);
  }

  @Test
  void aRefusalIsRecordedWithItsErrorIdAndTraceId() {
    host.wireMock.stubFor(
        post(urlPathEqualTo(PATH))
            .willReturn(protocolResponse(409, ProtocolErrorsTest.errorBody("invalid_transition"))));

    assertThrows(
        JarvisRefusalException.class,
        () ->
            host.client.recordPolicyDecision(
                ClientFixture.SESSION, Records.of(PolicyDecision.class)));

    OperationMetric refused = metrics.get(0);
    assertEquals("recordPolicyDecision", refused.operationId());
    assertEquals(Optional.of(JarvisFailure.Kind.REFUSED), refused.failure());
    assertEquals(Optional.of(ProtocolErrorId.INVALID_TRANSITION), refused.errorId());
    assertEquals(Optional.of("trace:test-1"), refused.traceId());
  }
}
