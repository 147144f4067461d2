package dev.jarvis.client.raw;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import dev.jarvis.core.ProtocolOperations;
import java.net.ConnectException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The raw transport against a loopback WireMock that records what arrived. */
class RawTransportTest {

  private WireMockServer host;
  private URI base;

  @BeforeEach
  void start() {
    host = new WireMockServer(options().bindAddress("127.0.0.1").dynamicPort());
    host.start();
    host.stubFor(
        any(anyUrl())
            .willReturn(
                aResponse()
                    .withStatus(409)
                    .withHeader("Jarvis-WorkSession-Revision", "7")
                    .withBody("{\"error_id\":\"stale_work_session\"}")));
    base = URI.create("http://127.0.0.1:" + host.port() + "/");
  }

  @AfterEach
  void stop() {
    host.stop();
  }

  @Test
  void itSendsExactlyTheBytesAndHeadersItIsGivenAndNothingElse() throws Exception {
    byte[] notJson = {'{', '"', 'a', 0, (byte) 0xff, '}'};
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Jarvis-Protocol-Version", "v9.9"); // deliberately wrong: it must go out as given
    headers.put("Jarvis-Expected-WorkSession-Revision", "-1");
    RawRequest request =
        RawRequest.of(
            base,
            ProtocolOperations.byId("appendJarvisEvent"),
            Optional.of("ws 1é"),
            "",
            headers,
            notJson);

    RawExchange exchange = RawTransport.create().send(request);

    LoggedRequest arrived = host.getAllServeEvents().get(0).getRequest();
    assertEquals("POST", arrived.getMethod().getName());
    assertEquals("/work-sessions/ws%201%C3%A9/events", arrived.getUrl());
    assertArrayEquals(notJson, arrived.getBody());
    assertEquals("v9.9", arrived.getHeader("Jarvis-Protocol-Version"));
    assertEquals("-1", arrived.getHeader("Jarvis-Expected-WorkSession-Revision"));
    // Nothing the caller did not give: no credential, no media type, no protocol header.
    assertFalse(arrived.containsHeader("Authorization"));
    assertFalse(arrived.containsHeader("Content-Type"));
    assertFalse(arrived.containsHeader("Jarvis-Actor-Id"));
    assertFalse(arrived.containsHeader("Jarvis-Idempotency-Key"));
    // The exchange keeps the request as sent beside the answer.
    assertSame(request, exchange.request());
    assertEquals(409, exchange.status());
    assertEquals(Optional.of("7"), exchange.header("jarvis-workSession-REVISION"));
    assertEquals(
        "{\"error_id\":\"stale_work_session\"}",
        new String(exchange.body(), StandardCharsets.UTF_8));
  }

  @Test
  void aRequestWithoutABodySendsNone() throws Exception {
    RawExchange exchange =
        RawTransport.create()
            .send(
                RawRequest.of(
                    base,
                    ProtocolOperations.byId("getWorkSession"),
                    Optional.of("ws-1"),
                    "",
                    Map.of("Authorization", "Bearer t"),
                    new byte[0]));

    LoggedRequest arrived = host.getAllServeEvents().get(0).getRequest();
    assertEquals("GET", arrived.getMethod().getName());
    assertEquals("/work-sessions/ws-1", arrived.getUrl());
    assertEquals(0, arrived.getBody().length);
    assertEquals("Bearer t", arrived.getHeader("Authorization"));
    assertFalse(exchange.request().hasBody());
  }

  @Test
  void theRequestAndTheExchangeKeepTheirBytesWhateverTheCallerDoesToItsArrays() throws Exception {
    byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
    RawRequest request = new RawRequest("POST", base.resolve("/workers/w"), Map.of(), body);
    body[0] = 'X';
    request.body()[1] = 'Y';
    assertArrayEquals("{}".getBytes(StandardCharsets.UTF_8), request.body());
    assertTrue(request.toString().contains("2 body bytes"));
  }

  @Test
  void anUnreachableHostIsAConnectException() {
    RawRequest request =
        new RawRequest(
            "GET", URI.create("http://127.0.0.1:1/work-sessions/x"), Map.of(), new byte[0]);
    assertThrows(ConnectException.class, () -> RawTransport.create().send(request));
  }
}
