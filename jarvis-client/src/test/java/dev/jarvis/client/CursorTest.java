package dev.jarvis.client;

import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.matching.RequestPatternBuilder.allRequests;
import static dev.jarvis.client.ClientFixture.protocolResponse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.error.JarvisProtocolException;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.WorkSession;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class CursorTest {

  private static final String WS = ClientFixture.SESSION;
  private static final String DECISIONS = "/work-sessions/" + WS + "/policy-decisions";
  private static final String EVENTS = "/work-sessions/" + WS + "/events";
  private static final String NEXT_HASH = "sha256:" + "5".repeat(64);
  private static final String FIRST_HASH =
      Records.json("WorkSession").get("last_event_hash").asText();

  @RegisterExtension final ClientFixture host = new ClientFixture();

  private int reads() {
    return host.wireMock.findAll(getRequestedFor(urlPathEqualTo("/work-sessions/" + WS))).size();
  }

  private void recordDecisionTwice() {
    host.client.recordPolicyDecision(WS, Records.of(PolicyDecision.class));
    host.client.recordPolicyDecision(WS, Records.of(PolicyDecision.class));
  }

  @Test
  void aHostReportingTheCursorSavesTheReRead() {
    host.wireMock.stubFor(
        post(urlPathEqualTo(DECISIONS))
            .willReturn(
                protocolResponse(201, Records.json("PolicyDecision").toString())
                    .withHeader("Jarvis-Host-Capabilities", "cursor-headers")
                    .withHeader("Jarvis-WorkSession-Revision", "2")
                    .withHeader("Jarvis-Last-Event-Hash", NEXT_HASH)));

    recordDecisionTwice();

    assertEquals(1, reads());
    LoggedRequest second =
        host.wireMock.findAll(postRequestedFor(urlPathEqualTo(DECISIONS))).get(1);
    assertEquals("2", second.getHeader("Jarvis-Expected-WorkSession-Revision"));
    assertEquals(NEXT_HASH, second.getHeader("Jarvis-Previous-Event-Hash"));
    assertEquals(Optional.of(new ChainCursor(2, NEXT_HASH)), host.client.cursor(WS));
  }

  @Test
  void againstAnyOtherHostTheCursorIsReReadBeforeTheNextMutation() {
    host.wireMock.stubFor(
        post(urlPathEqualTo(DECISIONS))
            .willReturn(protocolResponse(201, Records.json("PolicyDecision").toString())));

    recordDecisionTwice();

    assertEquals(2, reads());
  }

  @Test
  void creatingAWorkSessionSetsItsCursorFromTheAnswer() {
    host.wireMock.stubFor(
        post(urlPathEqualTo("/work-sessions"))
            .willReturn(protocolResponse(201, Records.json("WorkSession").toString())));

    WorkSession created = host.client.createWorkSession(Records.of(WorkSession.class));

    assertEquals(Optional.of(new ChainCursor(1, FIRST_HASH)), host.client.cursor(created.getId()));
    assertEquals(0, reads());
  }

  @Test
  void anAppendedEventIsBuiltOnTheCursorAndAdvancesIt() throws Exception {
    host.wireMock.stubFor(
        post(urlPathEqualTo(EVENTS))
            .willReturn(
                protocolResponse(201, "{{{request.body}}}").withTransformers("response-template")));

    JarvisEvent stored = host.client.appendJarvisEvent(WS, Records.of(JarvisEvent.class));

    JsonNode sent =
        JarvisJson.mapper()
            .readTree(
                host.wireMock.findAll(postRequestedFor(urlPathEqualTo(EVENTS))).get(0).getBody());
    assertEquals(2, sent.get("sequence").asInt());
    assertEquals(FIRST_HASH, sent.get("previous_hash").asText());
    assertEquals(Optional.empty(), EventChain.checkNext(new ChainCursor(1, FIRST_HASH), sent));
    assertEquals(WS, sent.get("work_session_id").asText());
    assertEquals(ClientFixture.ACTOR, sent.get("actor_id").asText());
    assertEquals("2026-06-12T18:00:00Z", sent.get("timestamp").asText());
    assertEquals(Optional.of(new ChainCursor(2, stored.getEventHash())), host.client.cursor(WS));
  }

  @Test
  void aHostThatStoresADifferentEventIsReportedNotFollowed() {
    ObjectNode forged = Records.json("JarvisEvent");
    forged.put("id", "event-forged").put("sequence", 2).put("work_session_id", WS);
    forged.put("actor_id", ClientFixture.ACTOR).put("timestamp", "2026-06-12T18:00:00Z");
    forged.put("previous_hash", FIRST_HASH).put("event_hash", "sha256:" + "6".repeat(64));
    forged
        .putObject("canonicalization")
        .put("serialization", "json-c14n")
        .put("hash_method", "sha256");
    host.wireMock.stubFor(
        post(urlPathEqualTo(EVENTS)).willReturn(protocolResponse(201, forged.toString())));

    JarvisInvalidResponseException e =
        assertThrows(
            JarvisInvalidResponseException.class,
            () -> host.client.appendJarvisEvent(WS, Records.of(JarvisEvent.class)));

    assertEquals("/event_hash", e.field());
    assertEquals(Optional.of(new ChainCursor(1, FIRST_HASH)), host.client.cursor(WS));
  }

  @Test
  void anInvalidBodyIsRefusedLocallyAndNothingIsSent() {
    PolicyDecision denyWithoutRequest = Records.of(PolicyDecision.class).requestId(null);

    JarvisProtocolException e =
        assertThrows(
            JarvisProtocolException.class,
            () -> host.client.recordPolicyDecision(WS, denyWithoutRequest));

    assertEquals("/request_id", e.error().getField());
    assertTrue(e.getMessage().contains("request_id"), e.getMessage());
    assertEquals(List.of(), host.wireMock.findAll(allRequests()));
  }

  @Test
  void anEventWhoseTextTheCanonicalFormCannotCarryIsRefusedLocallyByItsField() {
    JarvisEvent lone = Records.of(JarvisEvent.class).type("note.\ud800");

    JarvisProtocolException e =
        assertThrows(JarvisProtocolException.class, () -> host.client.appendJarvisEvent(WS, lone));

    assertEquals("/type", e.error().getField());
    assertTrue(
        host.wireMock.findAll(postRequestedFor(urlPathEqualTo(EVENTS))).isEmpty(),
        "nothing was sent");
  }
}
