package dev.jarvis.client;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.jarvis.client.ClientFixture.protocolResponse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.client.pipeline.PipelineContractException;
import dev.jarvis.client.pipeline.PipelineRequest;
import dev.jarvis.client.pipeline.PipelineResponse;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.model.PolicyDecision;
import java.io.IOException;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The pipeline holds a policy of yours to the contract a chain of links depends on: each link
 * passes the request on exactly once, and every attempt sends the same body bytes under the one
 * idempotency key and cursor the pipeline chose. A policy that breaks it fails the call loudly,
 * with {@link PipelineContractException} naming it, instead of sending a request that is not the
 * call's. Each attack has a positive control: the same policy, behaving, lets the call through.
 */
class PipelineContractTest {

  private static final String PATH = ClientFixture.DECISIONS;
  private static final String NAME = "misbehaving";

  /** Where the policy goes, and how many POSTs reach the host before the call fails. */
  enum Place {
    PER_CALL,
    PER_ATTEMPT
  }

  static Stream<Arguments> misbehaviours() {
    return Stream.of(
        Arguments.of(
            "passes the request on twice (per attempt)",
            Place.PER_ATTEMPT,
            policy((request, next) -> next.send(request).thenCompose(a -> next.send(request))),
            // Caught at the WorkSession re-read's GET, before the mutation's first attempt.
            0),
        Arguments.of(
            "passes the request on twice (per call)",
            Place.PER_CALL,
            policy((request, next) -> next.send(request).thenCompose(a -> next.send(request))),
            // The call's two attempts (503, then 201), then nothing more.
            2),
        Arguments.of(
            "passes it on twice and hides the second failure",
            Place.PER_CALL,
            policy(
                (request, next) ->
                    next.send(request)
                        .thenCompose(
                            first -> next.send(request).handle((second, failure) -> first))),
            2),
        Arguments.of(
            "answers without passing the request on (per attempt)",
            Place.PER_ATTEMPT,
            policy((request, next) -> CompletableFuture.completedFuture(cannedAnswer(request))),
            0),
        Arguments.of(
            "answers without passing the request on (per call)",
            Place.PER_CALL,
            policy((request, next) -> CompletableFuture.completedFuture(cannedAnswer(request))),
            0),
        Arguments.of(
            "changes the body bytes below the idempotency key",
            Place.PER_ATTEMPT,
            policy((request, next) -> next.send(request.withBody(otherDecision()))),
            0),
        Arguments.of(
            "changes the idempotency key",
            Place.PER_ATTEMPT,
            policy(
                (request, next) ->
                    next.send(request.withHeader(JarvisHeaders.IDEMPOTENCY_KEY, "key-other"))),
            0),
        Arguments.of(
            "drops the idempotency key",
            Place.PER_ATTEMPT,
            policy(
                (request, next) -> next.send(request.withoutHeader(JarvisHeaders.IDEMPOTENCY_KEY))),
            0),
        Arguments.of(
            "changes the idempotency key on the second attempt only",
            Place.PER_ATTEMPT,
            policy(
                (request, next) ->
                    next.send(
                        request.attempt() == 1
                            ? request
                            : request.withHeader(JarvisHeaders.IDEMPOTENCY_KEY, "key-other"))),
            1),
        Arguments.of(
            "changes the WorkSession cursor",
            Place.PER_ATTEMPT,
            policy(
                (request, next) ->
                    next.send(
                        request.withHeader(JarvisHeaders.EXPECTED_WORK_SESSION_REVISION, "99"))),
            0),
        Arguments.of(
            "renumbers the attempt",
            Place.PER_ATTEMPT,
            policy((request, next) -> next.send(renumbered(request))),
            0),
        Arguments.of(
            "passes on a request of its own making",
            Place.PER_ATTEMPT,
            policy(
                (request, next) ->
                    next.send(
                        PipelineRequest.of(
                                request.call(), request.actorId(), request.uri(), request.body())
                            .withHeaders(request.headers()))),
            0));
  }

  @ParameterizedTest(name = "a policy that {0} fails the call loudly, {1}")
  @MethodSource("misbehaviours")
  void aPolicyThatBreaksTheContractFailsTheCallNamingItself(
      String what, Place place, JarvisPolicy misbehaving, int sent) {
    for (Mode mode : Mode.values()) {
      try (ClientFixture host = fixture(place, misbehaving)) {
        host.firstAnswerThenDecision(PATH, aResponse().withStatus(503));

        PipelineContractException e =
            assertThrows(
                PipelineContractException.class,
                () -> mode.run(host.client, ClientFixture.recordDecision()),
                mode.name());

        assertEquals(NAME, e.link(), e.getMessage());
        assertTrue(e.getMessage().startsWith("pipeline link '" + NAME + "' "), e.getMessage());
        assertTrue(JarvisFailure.of(e).isEmpty(), "a bug in a policy, not a failure of the host");
        assertEquals(sent, posts(host).size(), mode + ": " + e.getMessage());
      }
    }
  }

  static Stream<Arguments> wellBehaved() {
    return Stream.of(
        Arguments.of(
            "sets a header of its own on each attempt",
            Place.PER_ATTEMPT,
            policy(
                (request, next) ->
                    next.send(request.withHeader("X-Attempt", "" + request.attempt())))),
        Arguments.of(
            "sets a header once per call",
            Place.PER_CALL,
            policy((request, next) -> next.send(request.withHeader("X-Trace", "t-1")))),
        Arguments.of(
            "passes on a copy with the same body",
            Place.PER_ATTEMPT,
            policy(
                (request, next) ->
                    next.send(request.body().map(request::withBody).orElse(request)))),
        Arguments.of(
            "fails the first attempt without passing it on (a fault injector)",
            Place.PER_ATTEMPT,
            faultOnFirstAttempt()));
  }

  @ParameterizedTest(name = "a policy that {0} lets the call through, {1}")
  @MethodSource("wellBehaved")
  void aPolicyThatKeepsTheContractLetsTheCallThrough(
      String what, Place place, JarvisPolicy behaving) {
    for (Mode mode : Mode.values()) {
      try (ClientFixture host = fixture(place, behaving)) {
        host.wireMock.stubFor(
            post(urlPathEqualTo(PATH))
                .willReturn(protocolResponse(201, Records.json("PolicyDecision").toString())));

        JarvisResponse<PolicyDecision> response =
            mode.run(host.client, ClientFixture.recordDecision());

        assertEquals(201, response.status());
        List<LoggedRequest> posts = posts(host);
        assertEquals(posts.get(0).getBodyAsString(), posts.get(posts.size() - 1).getBodyAsString());
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("modes")
  void aPerCallPolicyMayReplaceTheBodyBeforeItIsValidatedAndKeyed(Mode mode) throws Exception {
    ObjectNode other = otherDecision();
    JarvisPolicy replace = policy((request, next) -> next.send(request.withBody(other)));
    try (ClientFixture host = fixture(Place.PER_CALL, replace)) {
      host.firstAnswerThenDecision(PATH, aResponse().withStatus(503));

      mode.run(host.client, ClientFixture.recordDecision());

      List<LoggedRequest> posts = posts(host);
      assertEquals(2, posts.size());
      for (LoggedRequest post : posts) {
        assertEquals(other, JarvisJson.mapper().readTree(post.getBodyAsString()));
      }
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("modes")
  void everyPolicySeesTheCallsCursorKeyAndAttemptTypedInItsContext(Mode mode) {
    List<String> seen = Collections.synchronizedList(new ArrayList<>());
    JarvisPolicy perCall =
        JarvisPolicy.named(
            "per-call",
            (request, next) -> {
              seen.add("per call down: " + describe(request));
              return next.send(request)
                  .whenComplete((a, f) -> seen.add("per call up: " + describe(request)));
            });
    JarvisPolicy perAttempt =
        JarvisPolicy.named(
            "per-attempt",
            (request, next) -> {
              seen.add("attempt: " + describe(request));
              // What the context says is what the headers carry.
              request
                  .context()
                  .idempotencyKey()
                  .ifPresent(
                      key ->
                          assertEquals(
                              Optional.of(key), request.header(JarvisHeaders.IDEMPOTENCY_KEY)));
              return next.send(request);
            });
    try (ClientFixture host =
        new ClientFixture(b -> b.addPerCallPolicy(perCall).addPerAttemptPolicy(perAttempt))) {
      host.stubWorkSessionRead();
      host.firstAnswerThenDecision(PATH, aResponse().withStatus(503));

      mode.run(host.client, ClientFixture.recordDecision());

      ChainCursor reread =
          new ChainCursor(1, Records.json("WorkSession").get("last_event_hash").asText());
      assertEquals(
          List.of(
              "per call down: recordPolicyDecision, cursor none, key none, attempt 0",
              "attempt: getWorkSession, cursor none, key none, attempt 1",
              "attempt: recordPolicyDecision, cursor " + reread + ", key key-1, attempt 1",
              "attempt: recordPolicyDecision, cursor " + reread + ", key key-1, attempt 2",
              "per call up: recordPolicyDecision, cursor " + reread + ", key key-1, attempt 2"),
          seen);
    }
  }

  static Stream<Mode> modes() {
    return Stream.of(Mode.values());
  }

  private static String describe(PipelineRequest request) {
    return request.operation().operationId()
        + ", cursor "
        + request.context().cursor().map(Object::toString).orElse("none")
        + ", key "
        + request.context().idempotencyKey().orElse("none")
        + ", attempt "
        + request.context().attempt();
  }

  private static ClientFixture fixture(Place place, JarvisPolicy policy) {
    UnaryOperator<JarvisClientOptions.Builder> more =
        place == Place.PER_CALL
            ? b -> b.addPerCallPolicy(policy)
            : b -> b.addPerAttemptPolicy(policy);
    ClientFixture host = new ClientFixture(more);
    host.stubWorkSessionRead();
    return host;
  }

  private static List<LoggedRequest> posts(ClientFixture host) {
    return host.wireMock.findAll(postRequestedFor(urlPathEqualTo(PATH)));
  }

  private static JarvisPolicy policy(JarvisPolicy policy) {
    return JarvisPolicy.named(NAME, policy);
  }

  private static JarvisPolicy faultOnFirstAttempt() {
    AtomicInteger attempts = new AtomicInteger();
    return policy(
        (request, next) ->
            attempts.incrementAndGet() == 1
                ? CompletableFuture.failedFuture(new IOException("injected"))
                : next.send(request));
  }

  /**
   * The attack: renumbering the attempt. No method renumbers a request, so the link rebuilds it
   * from its own context, URI, body and headers, which numbers it as before any attempt.
   */
  private static PipelineRequest renumbered(PipelineRequest request) {
    return PipelineRequest.of(request.context(), request.uri(), request.body())
        .withHeaders(request.headers());
  }

  private static ObjectNode otherDecision() {
    ObjectNode other = Records.json("PolicyDecision").deepCopy();
    other.put("reason", "A different reason, sent by a policy.");
    return other;
  }

  private static PipelineResponse cannedAnswer(PipelineRequest request) {
    return PipelineResponse.of(
        request,
        201,
        HttpHeaders.of(Map.of("Jarvis-Protocol-Version", List.of("v0.1")), (a, b) -> true),
        Records.json("PolicyDecision").toString().getBytes(StandardCharsets.UTF_8));
  }
}
