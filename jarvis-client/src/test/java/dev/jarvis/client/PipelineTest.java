package dev.jarvis.client;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.model.PolicyDecision;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class PipelineTest {

  private static final String PATH = ClientFixture.DECISIONS;

  private final List<String> calls = Collections.synchronizedList(new ArrayList<>());
  private final List<String> callOutcomes = Collections.synchronizedList(new ArrayList<>());
  private final List<String> attempts = Collections.synchronizedList(new ArrayList<>());
  private final List<Integer> attemptStatuses = Collections.synchronizedList(new ArrayList<>());

  /** A user's per-call policy: notes each call and how it ended, as the caller will see it. */
  private final JarvisPolicy perCall =
      JarvisPolicy.named(
          "count-calls",
          (request, next) -> {
            calls.add(request.operation().operationId());
            return next.send(request)
                .whenComplete(
                    (answer, failure) ->
                        callOutcomes.add(
                            failure == null
                                ? "ok"
                                : JarvisFailure.of(failure).orElseThrow().kind().name()));
          });

  /** A user's per-attempt policy: notes each attempt, marks it with a header, sees its status. */
  private final JarvisPolicy perAttempt =
      JarvisPolicy.named(
          "mark-attempts",
          (request, next) -> {
            attempts.add(request.operation().operationId() + " #" + request.attempt());
            return next.send(request.withHeader("X-Attempt", Integer.toString(request.attempt())))
                .whenComplete((answer, failure) -> attemptStatuses.add(answer.status()));
          });

  @RegisterExtension
  final ClientFixture host =
      new ClientFixture(b -> b.addPerCallPolicy(perCall).addPerAttemptPolicy(perAttempt));

  @Test
  void thePipelineReadsAsNamedLinksWithTheUsersPoliciesInTheirPlaces() {
    assertEquals(
        List.of(
            "count-calls",
            "protocol-headers",
            "validation",
            "idempotency-key",
            "work-session-cursor",
            "event-chain",
            "answer-checks",
            "retry",
            "request-timestamp",
            "host-auth",
            "mark-attempts",
            "logging",
            "transport"),
        host.client.pipeline().names());
    assertEquals(7, host.client.pipeline().perCall().size());
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Mode.class)
  void aPerCallPolicyRunsOncePerCallAndAPerAttemptPolicyOncePerAttemptAcrossRetries(Mode mode) {
    host.firstAnswerThenDecision(PATH, aResponse().withStatus(503));

    JarvisResponse<PolicyDecision> response = mode.run(host.client, ClientFixture.recordDecision());

    assertEquals(2, response.attempts());
    // The re-read of the WorkSession (no cursor yet) is the pipeline's own step of the call: its
    // attempt passes the per-attempt policies, but a per-call policy sees one call.
    assertEquals(List.of("recordPolicyDecision"), calls);
    assertEquals(List.of("ok"), callOutcomes);
    assertEquals(
        List.of("getWorkSession #1", "recordPolicyDecision #1", "recordPolicyDecision #2"),
        attempts);
    assertEquals(List.of(200, 503, 201), attemptStatuses);
    List<String> marks =
        host.wireMock.findAll(postRequestedFor(urlPathEqualTo(PATH))).stream()
            .map(r -> r.getHeader("X-Attempt"))
            .toList();
    assertEquals(List.of("1", "2"), marks);
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(Mode.class)
  void aPerCallPolicySeesTheTypedFailureWhereAPerAttemptPolicySeesEachRawAnswer(Mode mode) {
    host.wireMock.stubFor(post(urlPathEqualTo(PATH)).willReturn(aResponse().withStatus(503)));

    JarvisTransportException e =
        assertThrows(
            JarvisTransportException.class,
            () -> mode.run(host.client, ClientFixture.recordDecision()));

    assertEquals(List.of("TRANSPORT"), callOutcomes);
    assertEquals(List.of(200, 503, 503, 503, 503), attemptStatuses);
    List<LoggedRequest> sent = host.wireMock.findAll(postRequestedFor(urlPathEqualTo(PATH)));
    assertEquals(4, sent.size(), e.getMessage());
  }
}
