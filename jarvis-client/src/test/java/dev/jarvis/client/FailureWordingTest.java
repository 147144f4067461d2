package dev.jarvis.client;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.matching.RequestPatternBuilder.allRequests;
import static dev.jarvis.client.ClientFixture.protocolResponse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.ProtocolErrorId;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Each failure says what happened, to which call, and what is safe to do next. */
class FailureWordingTest {

  private static final String PATH = ClientFixture.DECISIONS;

  @RegisterExtension ClientFixture host = new ClientFixture();

  @Test
  void aRefusalNamesTheOperationMethodAndPath() {
    host.wireMock.stubFor(
        post(urlPathEqualTo(PATH))
            .willReturn(protocolResponse(403, ProtocolErrorsTest.errorBody("unauthorized_actor"))));

    JarvisRefusalException e =
        assertThrows(
            JarvisRefusalException.class,
            () -> host.client.execute(ClientFixture.recordDecision()));

    String call = "recordPolicyDecision (POST " + PATH + ")";
    assertEquals(Optional.of(call), e.call());
    assertTrue(
        e.getMessage().startsWith(call + ": unauthorized_actor at /result: "), e.getMessage());
  }

  @Test
  void aMutationWhoseRetriesGaveUpSaysTheHostMayHaveAppliedItAndHowToRepeatItSafely() {
    host.wireMock.stubFor(post(urlPathEqualTo(PATH)).willReturn(protocolResponse(503, "")));

    JarvisTransportException e =
        assertThrows(
            JarvisTransportException.class,
            () -> host.client.execute(ClientFixture.recordDecision()));

    assertTrue(
        e.getMessage().contains("The host may have applied this recordPolicyDecision"),
        e.getMessage());
    assertTrue(e.getMessage().contains("withIdempotencyKey(\"key-1\")"), e.getMessage());
    assertEquals(Optional.of("key-1"), e.idempotencyKey());

    host.wireMock.resetMappings();
    host.stubWorkSessionRead();
    host.firstAnswerThenDecision(
        PATH, protocolResponse(201, Records.json("PolicyDecision").toString()));
    host.client.execute(
        ClientFixture.recordDecision().withIdempotencyKey(e.idempotencyKey().get()));

    List<String> keys =
        host.wireMock.findAll(postRequestedFor(urlPathEqualTo(PATH))).stream()
            .map(r -> r.getHeader("Jarvis-Idempotency-Key"))
            .distinct()
            .toList();
    assertEquals(List.of("key-1"), keys, "every attempt, and the re-run, under the same key");
  }

  @Test
  void aReadThatGaveUpSaysNothingAboutApplying() {
    host.wireMock.stubFor(
        get(urlPathEqualTo("/work-sessions/" + ClientFixture.SESSION))
            .willReturn(protocolResponse(503, "")));
    JarvisTransportException e =
        assertThrows(
            JarvisTransportException.class,
            () -> host.client.getWorkSession(ClientFixture.SESSION));

    assertEquals(Optional.empty(), e.idempotencyKey());
    assertTrue(!e.getMessage().contains("may have applied"), e.getMessage());
  }

  @Test
  void aBodyOverTheHostsLimitIsRefusedLocallyNamingTheLimitAndNothingIsSent() {
    JarvisClient small =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri("http://127.0.0.1:" + host.wireMock.port())
                .actorId(ClientFixture.ACTOR)
                .maxRequestBodyBytes(100)
                .build());

    JarvisRefusalException e =
        assertThrows(
            JarvisRefusalException.class,
            () ->
                small.recordPolicyDecision(
                    ClientFixture.SESSION, Records.of(PolicyDecision.class)));

    assertTrue(e.isLocal());
    assertEquals(ProtocolErrorId.UNKNOWN_STATE, e.errorId());
    assertEquals("policy_decision", e.objectType());
    assertTrue(e.reason().contains("larger than the 100-byte limit"), e.reason());
    assertTrue(e.remediation().contains("maxRequestBodyBytes"), e.remediation());
    assertTrue(e.remediation().contains("1048576 bytes"), e.remediation());
    assertEquals(List.of(), host.wireMock.findAll(allRequests()), "not even a re-read");
    small.close();
  }

  @Test
  void theDefaultBodyLimitIsTheHostsOneMebibyte() {
    assertEquals(
        1024 * 1024,
        JarvisClientOptions.builder()
            .baseUri("http://h")
            .actorId("a")
            .build()
            .maxRequestBodyBytes());
  }

  @Test
  void eachActingActorSendsItsOwnCredentialThroughOneClient() {
    JarvisClient client =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri("http://127.0.0.1:" + host.wireMock.port())
                .actorId("actor-a")
                .hostAuthPerActor(actor -> Optional.of("Bearer token-of-" + actor))
                .build());

    client.getWorkSession(ClientFixture.SESSION);
    client.as("actor-b").getWorkSession(ClientFixture.SESSION);
    client.execute(JarvisCall.getWorkSession(ClientFixture.SESSION).as("actor-c"));

    List<String> sent =
        host.wireMock.findAll(allRequests()).stream()
            .map(r -> r.getHeader("Jarvis-Actor-Id") + " " + r.getHeader("Authorization"))
            .toList();
    assertEquals(
        List.of(
            "actor-a Bearer token-of-actor-a",
            "actor-b Bearer token-of-actor-b",
            "actor-c Bearer token-of-actor-c"),
        sent);
    client.close();
  }

  @Test
  void anActorWithNoCredentialIsSentWithoutAuthorization() {
    JarvisClient client =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri("http://127.0.0.1:" + host.wireMock.port())
                .actorId("actor-a")
                .hostAuth(ActorAuth.perActor(Map.of("actor-b", "Bearer b")))
                .build());

    client.getWorkSession(ClientFixture.SESSION);

    host.wireMock.verify(
        1,
        getRequestedFor(urlPathEqualTo("/work-sessions/" + ClientFixture.SESSION))
            .withoutHeader("Authorization")
            .withHeader("Jarvis-Actor-Id", equalTo("actor-a")));
    client.close();
  }

  @Test
  void aCredentialFetchedAsynchronouslyIsSentWithoutBlockingTheCall() throws Exception {
    ExecutorService identityProvider = Executors.newSingleThreadExecutor();
    JarvisClient client =
        JarvisClient.create(
            JarvisClientOptions.builder()
                .baseUri("http://127.0.0.1:" + host.wireMock.port())
                .actorId("actor-a")
                .hostAuth(
                    actor ->
                        CompletableFuture.supplyAsync(
                            () -> Optional.of("Bearer fetched-for-" + actor), identityProvider))
                .build());
    try {
      client.executeAsync(JarvisCall.getWorkSession(ClientFixture.SESSION)).get();
      client.getWorkSession(ClientFixture.SESSION);

      host.wireMock.verify(
          2,
          getRequestedFor(urlPathEqualTo("/work-sessions/" + ClientFixture.SESSION))
              .withHeader("Authorization", equalTo("Bearer fetched-for-actor-a")));
    } finally {
      client.close();
      identityProvider.shutdown();
    }
  }
}
