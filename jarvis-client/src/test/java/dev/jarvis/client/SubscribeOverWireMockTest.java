package dev.jarvis.client;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.absent;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.matching;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.eventlog.EventStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code client.subscribe} against WireMock serving whole {@code text/event-stream} bodies: each
 * body ends after its frames, as a connection the host closes does, and the next request names the
 * last verified event in {@code Last-Event-ID}.
 */
class SubscribeOverWireMockTest {

  @RegisterExtension final ClientFixture host = new ClientFixture();

  static final String WS = ClientFixture.SESSION;
  static final String EVENTS = "/work-sessions/" + WS + "/events";
  final List<JsonNode> chain = EventPageShapesTest.chain(4);

  void stream(String lastEventId, List<JsonNode> events, String tail) {
    StringBuilder body = new StringBuilder(": heartbeat\n\n");
    for (JsonNode event : events) {
      body.append(
          new String(
              EventStream.frame(event.path("sequence").asLong(), StreamHost.oneLine(event)),
              StandardCharsets.UTF_8));
    }
    body.append(tail);
    host.wireMock.stubFor(
        get(urlPathEqualTo(EVENTS))
            .withHeader("Accept", matching(EventStream.MEDIA_TYPE + ".*"))
            .withHeader(
                EventStream.LAST_EVENT_ID, lastEventId == null ? absent() : equalTo(lastEventId))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Content-Type", EventStream.MEDIA_TYPE)
                    .withHeader("Jarvis-Protocol-Version", "v0.1")
                    .withHeader("Jarvis-Host-Capabilities", "event-log, event-stream")
                    .withBody(body.toString())));
  }

  @Test
  void framesOfEachBodyAreDeliveredInOrderAndTheNextBodyResumesAfterTheLast() throws Exception {
    stream(null, chain.subList(0, 3), "");
    stream("3", chain.subList(3, 4), ": end idle\n\n");
    stream("4", List.of(), ": end idle\n\n");
    Collecting subscriber = Collecting.unbounded();

    host.client.subscribe(WS).subscribe(subscriber);

    assertEquals(List.of(1L, 2L, 3L, 4L), subscriber.take(4));
    subscriber.cancel();
    assertTrue(subscriber.stopped());
    host.wireMock.verify(
        1, getRequestedFor(urlPathEqualTo(EVENTS)).withHeader(EventStream.LAST_EVENT_ID, absent()));
    host.wireMock.verify(
        1,
        getRequestedFor(urlPathEqualTo(EVENTS))
            .withHeader(EventStream.LAST_EVENT_ID, equalTo("3")));
    assertEquals(4, subscriber.all.size(), "nothing doubled");
  }

  @Test
  void aRefusalOfTheStreamIsTheReadsRefusal() throws Exception {
    host.wireMock.stubFor(
        get(urlPathEqualTo(EVENTS))
            .willReturn(ClientFixture.protocolResponse(405, "").withHeader("Allow", "POST")));
    Collecting subscriber = Collecting.unbounded();

    host.client.subscribe(WS).subscribe(subscriber);

    assertTrue(subscriber.failure() instanceof JarvisUnsupportedCapabilityException);
    assertTrue(subscriber.stopped());
  }
}
