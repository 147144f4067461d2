package dev.jarvis.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A transport failure says what a user needs to act: method, URL with host and port, attempts, time
 * spent and the root cause; and failures another attempt cannot mend are not retried.
 */
class TransportFailureTest {

  private static final String PATH = "/work-sessions/" + ClientFixture.SESSION;

  @Test
  void nothingListeningIsRetriedAndSaysConnectionRefusedWithHostAndPort() throws IOException {
    int port = freePort();
    try (ClientFixture host = new ClientFixture(b -> b.baseUri("http://127.0.0.1:" + port))) {
      JarvisTransportException e =
          assertThrows(
              JarvisTransportException.class,
              () -> host.client.getWorkSession(ClientFixture.SESSION));

      String message = e.getMessage();
      assertTrue(message.startsWith("GET http://127.0.0.1:" + port + PATH + ": "), message);
      // 4 attempts, waits of 200, 400 and 800 ms on the test clock (no jitter).
      assertTrue(message.contains("after 4 attempts in 1400 ms"), message);
      // java.net.http says ConnectException caused by ClosedChannelException; the user reads this.
      assertTrue(message.contains(": connection refused by 127.0.0.1:" + port + " ("), message);
      assertFalse(message.contains("null"), message);
      assertEquals(
          List.of(Duration.ofMillis(200), Duration.ofMillis(400), Duration.ofMillis(800)),
          host.waits);
    }
  }

  @ParameterizedTest(name = "{0} is not retried")
  @CsvSource({
    "an unknown host name, http://jarvis-host.invalid:8080, http://jarvis-host.invalid:8080,"
        + " the host name does not resolve",
    "a refused TLS handshake, https://127.0.0.1:PORT, https://127.0.0.1:PORT,"
        + " the TLS handshake failed"
  })
  void aFailureAnotherAttemptCannotMendEndsTheCallAtOnce(
      String what, String baseUri, String shownUri, String why) {
    try (ClientFixture host = new ClientFixture(b -> b)) {
      // The TLS case talks to the fixture's plain-HTTP WireMock: the handshake gets no TLS answer.
      String port = String.valueOf(host.wireMock.port());
      String base = baseUri.replace("PORT", port);
      JarvisClient client =
          JarvisClient.create(
              JarvisClientOptions.builder()
                  .baseUri(base)
                  .actorId(ClientFixture.ACTOR)
                  .hostAuth("Bearer test-token")
                  .clock(host.clock)
                  .sleeper(host.waits::add)
                  .build());
      try (client) {
        JarvisTransportException e =
            assertThrows(
                JarvisTransportException.class, () -> client.getWorkSession(ClientFixture.SESSION));

        String message = e.getMessage();
        assertTrue(message.startsWith("GET " + shownUri.replace("PORT", port) + PATH), message);
        assertTrue(message.contains("after 1 attempt in "), message);
        assertTrue(message.contains("(not retried: " + why + ")"), message);
        assertEquals(List.of(), host.waits, "no wait before another attempt");
      }
    }
  }

  @Test
  void theUrlShownNeverCarriesUserInfo() throws IOException {
    int port = freePort();
    try (ClientFixture host =
        new ClientFixture(b -> b.baseUri("http://user:secret@127.0.0.1:" + port))) {
      JarvisTransportException e =
          assertThrows(
              JarvisTransportException.class,
              () -> host.client.getWorkSession(ClientFixture.SESSION));

      assertFalse(e.getMessage().contains("secret"), e.getMessage());
      assertTrue(e.getMessage().contains("http://127.0.0.1:" + port + PATH), e.getMessage());
    }
  }

  /** A loopback port nobody listens on (bound, then released). */
  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
