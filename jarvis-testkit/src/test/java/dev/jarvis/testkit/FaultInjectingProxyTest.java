package dev.jarvis.testkit;

import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class FaultInjectingProxyTest {

  private static final String BODY = "{\"answer\":\"" + "x".repeat(2000) + "\"}";

  private WireMockServer target;

  @BeforeEach
  void startTarget() {
    target =
        new WireMockServer(
            WireMockConfiguration.options()
                .dynamicPort()
                .bindAddress("127.0.0.1")
                .disableRequestJournal());
    target.start();
    target.stubFor(get("/answer").willReturn(ok(BODY)));
  }

  @AfterEach
  void stopTarget() {
    target.stop();
  }

  @Test
  void aFaultFreeProxyForwardsAnswersWithTheirBodiesAndTurnsNaglesAlgorithmOff() throws Exception {
    try (FaultInjectingProxy proxy =
        FaultInjectingProxy.to(URI.create(target.baseUrl() + "/")).faultRate(0).start()) {
      HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      HttpRequest request = HttpRequest.newBuilder(proxy.baseUri().resolve("answer")).build();
      for (int i = 0; i < 3; i++) {
        HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString());
        assertEquals(200, answer.statusCode());
        assertEquals(BODY, answer.body());
      }
      // The JDK server sends an answer's headers and body as two packets; with Nagle's algorithm
      // on, each body waits ~40 ms for the client's delayed ACK (a 1,000-fault walkthrough took
      // 111 s instead of 22 s). The server reads this property once, when its first server starts.
      // Checked as a setting, not timed: a timed test would measure the machine.
      assertEquals("true", System.getProperty("sun.net.httpserver.nodelay"));
    }
  }
}
