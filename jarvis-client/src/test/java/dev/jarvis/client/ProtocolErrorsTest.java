package dev.jarvis.client;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static dev.jarvis.client.ClientFixture.protocolResponse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.error.JarvisProtocolException;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.ProtocolErrorId;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class ProtocolErrorsTest {

  private static final String PATH =
      "/work-sessions/" + ClientFixture.SESSION + "/policy-decisions";
  private static final Set<ProtocolErrorId> STALE =
      Set.of(
          ProtocolErrorId.STALE_WORK_SESSION_REVISION, ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH);

  @RegisterExtension final ClientFixture host = new ClientFixture();

  static String errorBody(String errorId) {
    ObjectNode error = JarvisJson.mapper().createObjectNode();
    error.put("error_id", errorId);
    error.put("protocol_version", "v0.1");
    error.put("object_type", "policy_decision");
    error.put("field", "/result");
    error.put("reason", "refused by the test host");
    error.put("remediation", "do something else");
    error.put("trace_id", "trace:test-1");
    return error.toString();
  }

  private JarvisProtocolException refusalOf(String body) {
    host.wireMock.stubFor(post(urlPathEqualTo(PATH)).willReturn(protocolResponse(400, body)));
    return assertThrows(
        JarvisProtocolException.class,
        () ->
            host.client.recordPolicyDecision(
                ClientFixture.SESSION, Records.of(PolicyDecision.class)));
  }

  @ParameterizedTest(name = "{0}")
  @EnumSource(ProtocolErrorId.class)
  void everyErrorIdBecomesATypedProtocolException(ProtocolErrorId id) {
    JarvisProtocolException e = refusalOf(errorBody(id.getValue()));

    assertEquals(id, e.errorId());
    assertEquals("/result", e.error().getField());
    assertEquals("trace:test-1", e.error().getTraceId());
    assertEquals(STALE.contains(id), e instanceof JarvisStaleSessionException);
  }

  @Test
  void aStaleSessionIsReReadAndReportedWithoutReplayingTheCall() {
    JarvisStaleSessionException e =
        assertInstanceOf(
            JarvisStaleSessionException.class, refusalOf(errorBody("stale_work_session_revision")));

    assertEquals(
        new ChainCursor(1, Records.json("WorkSession").get("last_event_hash").asText()),
        e.current());
    assertEquals(1, host.wireMock.findAll(postRequestedFor(urlPathEqualTo(PATH))).size());
    // one read before the mutation (no cursor yet), one after the refusal
    assertEquals(
        2,
        host.wireMock
            .findAll(getRequestedFor(urlPathEqualTo("/work-sessions/" + ClientFixture.SESSION)))
            .size());
  }

  @Test
  void aDenyDecisionIsAnOrdinaryReturnValue() {
    host.wireMock.stubFor(
        post(urlPathEqualTo(PATH))
            .willReturn(protocolResponse(201, Records.json("PolicyDecision").toString())));

    PolicyDecision decision =
        host.client.recordPolicyDecision(ClientFixture.SESSION, Records.of(PolicyDecision.class));

    assertEquals(PolicyDecisionResult.DENY, decision.getResult());
  }

  @Test
  void aRefusalWhoseBodyIsNotAProtocolErrorIsAnOffSpecAnswer() {
    host.wireMock.stubFor(
        post(urlPathEqualTo(PATH)).willReturn(protocolResponse(400, "{\"error\":\"bad\"}")));

    JarvisInvalidResponseException e =
        assertThrows(
            JarvisInvalidResponseException.class,
            () ->
                host.client.recordPolicyDecision(
                    ClientFixture.SESSION, Records.of(PolicyDecision.class)));
    assertEquals(400, e.status());
  }

  @Test
  void anAnswerWithAnUnknownFieldIsOffSpecAndNamesTheField() {
    ObjectNode body = Records.json("PolicyDecision");
    body.put("database_primary_key", "42");
    host.wireMock.stubFor(
        post(urlPathEqualTo(PATH)).willReturn(protocolResponse(201, body.toString())));

    JarvisInvalidResponseException e =
        assertThrows(
            JarvisInvalidResponseException.class,
            () ->
                host.client.recordPolicyDecision(
                    ClientFixture.SESSION, Records.of(PolicyDecision.class)));
    assertTrue(e.getMessage().contains("database_primary_key"), e.getMessage());
  }

  @Test
  void anAnswerWithoutTheProtocolVersionHeaderIsOffSpec() {
    host.wireMock.stubFor(
        post(urlPathEqualTo(PATH))
            .willReturn(
                aResponse()
                    .withStatus(201)
                    .withHeader("Content-Type", "application/json")
                    .withBody(Records.json("PolicyDecision").toString())));

    JarvisInvalidResponseException e =
        assertThrows(
            JarvisInvalidResponseException.class,
            () ->
                host.client.recordPolicyDecision(
                    ClientFixture.SESSION, Records.of(PolicyDecision.class)));
    assertEquals("Jarvis-Protocol-Version", e.field());
  }
}
