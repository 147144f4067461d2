package dev.jarvis.client;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.jarvis.client.ClientFixture.protocolResponse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.http.Fault;
import dev.jarvis.client.JarvisFailure.Kind;
import dev.jarvis.model.PolicyDecision;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FailureFamilyTest {

  private static final String PATH = ClientFixture.DECISIONS;
  private static final Optional<String> TRACE = Optional.of("trace:test-1");

  @RegisterExtension final ClientFixture host = new ClientFixture();

  private static String error(String errorId) {
    return ProtocolErrorsTest.errorBody(errorId);
  }

  static Stream<Arguments> answers() {
    return Stream.of(
        Arguments.of(
            "a reset connection, to the last attempt",
            aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER),
            Kind.TRANSPORT,
            Optional.empty()),
        Arguments.of(
            "503 with a ProtocolError, to the last attempt",
            protocolResponse(503, error("invalid_transition")),
            Kind.TRANSPORT,
            TRACE),
        Arguments.of(
            "a ProtocolError",
            protocolResponse(409, error("invalid_transition")),
            Kind.REFUSED,
            TRACE),
        Arguments.of(
            "a stale revision",
            protocolResponse(409, error("stale_work_session_revision")),
            Kind.STALE_SESSION,
            TRACE),
        Arguments.of(
            "a ProtocolError without the protocol version header",
            aResponse().withStatus(400).withBody(error("invalid_transition")),
            Kind.INVALID_RESPONSE,
            TRACE),
        Arguments.of(
            "a body that is not JSON",
            protocolResponse(201, "<html>"),
            Kind.INVALID_RESPONSE,
            Optional.empty()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("answers")
  void everyFailureIsAJarvisFailureOfItsKindCarryingTheHostsTraceId(
      String why, ResponseDefinitionBuilder answer, Kind kind, Optional<String> trace) {
    host.wireMock.stubFor(post(urlPathEqualTo(PATH)).willReturn(answer));

    RuntimeException thrown =
        assertThrows(
            RuntimeException.class, () -> host.client.execute(ClientFixture.recordDecision()));

    JarvisFailure failure = assertInstanceOf(JarvisFailure.class, thrown);
    assertEquals(kind, failure.kind());
    assertEquals(trace, failure.protocolTraceId());
    trace.ifPresent(t -> assertTrue(thrown.getMessage().contains(t), thrown.getMessage()));
  }

  @Test
  void aLocalRefusalBelongsToTheFamilyWithTheLocalTraceId() {
    JarvisCall<PolicyDecision> invalid =
        JarvisCall.recordPolicyDecision(
            ClientFixture.SESSION, Records.of(PolicyDecision.class).requestId(null));

    JarvisRefusalException e =
        assertThrows(JarvisRefusalException.class, () -> host.client.execute(invalid));

    assertEquals(Kind.REFUSED, e.kind());
    assertTrue(e.isLocal());
    assertEquals(Optional.of("trace:local"), e.protocolTraceId());
  }

  @Test
  void oneCatchClauseTakesTheWholeFamilyAndSwitchesOnItsKind() {
    host.wireMock.stubFor(
        post(urlPathEqualTo(PATH)).willReturn(protocolResponse(409, error("invalid_transition"))));

    String handled;
    try {
      host.client.execute(ClientFixture.recordDecision());
      handled = "nothing";
    } catch (JarvisTransportException | JarvisRefusalException | JarvisInvalidResponseException e) {
      handled =
          switch (e.kind()) {
            case TRANSPORT -> "retry later";
            case STALE_SESSION -> "decide again";
            case REFUSED -> "refused, trace " + e.protocolTraceId().orElseThrow();
            case INVALID_RESPONSE -> "tell the host's owner";
          };
    }

    assertEquals("refused, trace trace:test-1", handled);
  }

  @Test
  void anAsyncFailureIsFoundBehindItsCompletionException() {
    host.wireMock.stubFor(
        post(urlPathEqualTo(PATH)).willReturn(protocolResponse(409, error("invalid_transition"))));

    CompletionException wrapped =
        assertThrows(
            CompletionException.class,
            () -> host.client.executeAsync(ClientFixture.recordDecision()).join());

    assertEquals(Optional.of(Kind.REFUSED), JarvisFailure.of(wrapped).map(JarvisFailure::kind));
  }

  @Test
  void theFamilyIsSealedToTheClientsThreeFailureTypes() {
    assertEquals(
        Set.of(
            JarvisTransportException.class,
            JarvisRefusalException.class,
            JarvisInvalidResponseException.class),
        Set.of(JarvisFailure.class.getPermittedSubclasses()));
  }
}
