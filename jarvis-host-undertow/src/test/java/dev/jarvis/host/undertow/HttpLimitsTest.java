package dev.jarvis.host.undertow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.host.ProtocolHost;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each limit at its edge, over real loopback sockets: at the limit the request reaches the host
 * kit, one past it is refused with a clear status (a {@code ProtocolError} wherever an answer can
 * be sent) and the connection closed.
 */
class HttpLimitsTest {

  /**
   * Small counts, with the default timeouts: a test of a count must not meet a timeout on the way
   * (an idle timeout of 300 ms would close the first of the connections held open below whenever
   * the next requests took that long on a slow machine).
   */
  private static final HttpLimits SMALL =
      HttpLimits.defaults().withMaxConnections(3).withMaxHeaders(12).withMaxHeaderBytes(2048);

  /** Short timeouts, for the tests that wait for one to pass (a bound, never a measurement). */
  private static final HttpLimits SHORT_TIMEOUTS =
      HttpLimits.defaults()
          .withRequestTimeout(Duration.ofMillis(300))
          .withIdleTimeout(Duration.ofMillis(300));

  @Test
  void aBodyOfExactlyTheHostKitsLimitIsAcceptedAndOneByteMoreIsRefused() throws IOException {
    try (UndertowTestHost host = new UndertowTestHost(HttpLimits.defaults());
        RawConnection c = host.connect()) {
      RawConnection.Reply atLimit =
          c.send(host.registerWorker("worker-big-1", padded("worker-big-1", 0))).read();
      assertEquals(200, atLimit.status(), atLimit.body());

      RawConnection.Reply past =
          c.send(host.registerWorker("worker-big-2", padded("worker-big-2", 1))).read();
      assertEquals(400, past.status());
      assertTrue(past.body().contains("larger than " + ProtocolHost.MAX_BODY_BYTES), past.body());
      assertEquals("v0.1", past.header("Jarvis-Protocol-Version"));
    }
  }

  @Test
  void aBodyOverTwiceTheLimitIsReadAndDroppedAndTheConnectionStaysUsable() throws IOException {
    try (UndertowTestHost host = new UndertowTestHost(HttpLimits.defaults());
        RawConnection c = host.connect()) {
      RawConnection.Reply past =
          c.send(host.registerWorker("worker-big-3", padded("worker-big-3", (1 << 20) + 1))).read();
      assertEquals(400, past.status(), past.body());
      assertTrue(past.body().contains("larger than"), past.body());
      RawConnection.Reply next =
          c.send(host.registerWorker("worker-ok-3", UndertowTestHost.worker("worker-ok-3"))).read();
      assertEquals(200, next.status(), next.body());
    }
  }

  @Test
  void aBodyFourTimesTheLimitFromTheJdkClientIsRefusedWithAProtocolError() throws Exception {
    try (UndertowTestHost host = new UndertowTestHost(HttpLimits.defaults())) {
      java.net.http.HttpClient http =
          java.net.http.HttpClient.newBuilder()
              .version(java.net.http.HttpClient.Version.HTTP_1_1)
              .build();
      java.net.http.HttpResponse<String> read =
          http.send(
              java.net.http.HttpRequest.newBuilder(
                      java.net.URI.create("http://127.0.0.1:" + host.port() + "/work-sessions/x"))
                  .header("Authorization", "Bearer " + UndertowTestHost.TOKEN)
                  .header("Jarvis-Protocol-Version", "v0.1")
                  .header("Jarvis-Actor-Id", "host-admin")
                  .build(),
              java.net.http.HttpResponse.BodyHandlers.ofString());
      assertTrue(read.statusCode() >= 400, read.body());
      java.net.http.HttpResponse<String> answer =
          http.send(
              java.net.http.HttpRequest.newBuilder(
                      java.net.URI.create("http://127.0.0.1:" + host.port() + "/workers/w-big"))
                  .header("Authorization", "Bearer " + UndertowTestHost.TOKEN)
                  .header("Jarvis-Protocol-Version", "v0.1")
                  .header("Jarvis-Actor-Id", "host-admin")
                  .header("Jarvis-Idempotency-Key", "key-big")
                  .header("Jarvis-Request-Timestamp", UndertowTestHost.NOW)
                  .PUT(
                      java.net.http.HttpRequest.BodyPublishers.ofByteArray(
                          padded("w-big", 3 << 20)))
                  .build(),
              java.net.http.HttpResponse.BodyHandlers.ofString());
      assertEquals(400, answer.statusCode(), answer.body());
      assertTrue(answer.body().contains("larger than"), answer.body());
    }
  }

  @Test
  void aBodyAnnouncedBeyondWhatIsDrainedIsRefusedUnreadAndTheConnectionClosed() throws IOException {
    try (UndertowTestHost host = new UndertowTestHost(HttpLimits.defaults());
        RawConnection c = host.connect()) {
      String head = host.registerWorker("worker-huge", new byte[0]);
      String huge =
          head.replace(
              "Content-Length: 0",
              "Content-Length: " + (ProtocolHost.MAX_BODY_BYTES + HttpLimits.DRAIN_LIMIT + 1));
      RawConnection.Reply reply = c.send(huge).read();
      assertEquals(400, reply.status());
      assertTrue(reply.body().contains("larger than"), reply.body());
      assertEquals("close", reply.header("Connection"));
      assertTrue(c.closedByServer());
    }
  }

  @Test
  void jsonNestedToTheHostKitsDepthIsReadAndOneLevelDeeperIsRefusedAsTooDeep() throws IOException {
    int limit = ProtocolHost.MAX_NESTING_LEVELS;
    try (UndertowTestHost host = new UndertowTestHost(HttpLimits.defaults());
        RawConnection c = host.connect()) {
      RawConnection.Reply atLimit = c.send(host.registerWorker("w-deep", nested(limit))).read();
      RawConnection.Reply past = c.send(host.registerWorker("w-deep", nested(limit + 1))).read();
      assertEquals(400, atLimit.status(), atLimit.body());
      assertEquals(400, past.status(), past.body());
      // At the limit the document is read and judged against the schema; past it, it is not read.
      assertTrue(
          atLimit.body().contains("\"reason\":\"array found, object expected"), atLimit.body());
      assertTrue(past.body().contains("\"reason\":\"The body nests deeper than"), past.body());
    }
  }

  private static byte[] nested(int depth) {
    return ("[".repeat(depth) + "]".repeat(depth))
        .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  }

  @Test
  void headersUpToTheLimitReachTheHostAndOneMoreIsRefused() throws IOException {
    try (UndertowTestHost host = new UndertowTestHost(SMALL)) {
      // readHead has 4 header fields: pad to exactly the limit, then one past it.
      String atLimit = UndertowTestHost.readHead("/nothing-here") + extraHeaders(8) + "\r\n";
      try (RawConnection c = host.connect()) {
        RawConnection.Reply reply = c.send(atLimit).read();
        assertEquals(404, reply.status(), reply.body());
        assertTrue(reply.body().contains("\"error_id\""), reply.body());
      }
      String past = UndertowTestHost.readHead("/nothing-here") + extraHeaders(9) + "\r\n";
      try (RawConnection c = host.connect()) {
        RawConnection.Reply reply = c.send(past).read();
        assertEquals(400, reply.status());
        assertTrue(c.closedByServer());
      }
    }
  }

  @Test
  void aHeaderBlockUpToTheLimitReachesTheHostAndOneByteMoreIsRefused() throws IOException {
    try (UndertowTestHost host = new UndertowTestHost(SMALL)) {
      String head = UndertowTestHost.readHead("/nothing-here");
      // The limit counts the request line and the header lines as sent, CRLFs included.
      int filler = SMALL.maxHeaderBytes() - head.length() - "X-Filler: ".length() - 2 - 2;
      try (RawConnection c = host.connect()) {
        RawConnection.Reply reply =
            c.send(head + "X-Filler: " + "a".repeat(filler) + "\r\n\r\n").read();
        assertEquals(404, reply.status(), reply.body());
      }
      try (RawConnection c = host.connect()) {
        c.send(head + "X-Filler: " + "a".repeat(filler + 1) + "\r\n\r\n");
        RawConnection.Reply reply = c.read();
        assertEquals(400, reply.status());
        assertTrue(c.closedByServer());
      }
    }
  }

  @Test
  void connectionsUpToTheLimitAreServedAndOneMoreIsAnswered503AndClosed() throws IOException {
    try (UndertowTestHost host = new UndertowTestHost(SMALL)) {
      List<RawConnection> open = new ArrayList<>();
      try {
        for (int i = 0; i < SMALL.maxConnections(); i++) {
          RawConnection c = host.connect();
          open.add(c);
          RawConnection.Reply reply =
              c.send(UndertowTestHost.readHead("/nothing-here") + "\r\n").read();
          assertEquals(404, reply.status(), reply.body());
        }
        assertEquals(SMALL.maxConnections(), host.handler.openConnections());
        try (RawConnection extra = host.connect()) {
          RawConnection.Reply reply =
              extra.send(UndertowTestHost.readHead("/nothing-here") + "\r\n").read();
          assertEquals(503, reply.status());
          assertTrue(reply.body().contains("\"error_id\":\"unknown_state\""), reply.body());
          assertEquals("close", reply.header("Connection"));
          assertTrue(extra.closedByServer());
        }
        // The connections within the limit are still served.
        RawConnection.Reply again =
            open.get(0).send(UndertowTestHost.readHead("/nothing-here") + "\r\n").read();
        assertEquals(404, again.status());
      } finally {
        for (RawConnection c : open) {
          c.close();
        }
      }
    }
  }

  @Test
  void aBodyThatStopsArrivingIsAnswered408AndItsConnectionClosed() throws IOException {
    try (UndertowTestHost host = new UndertowTestHost(SHORT_TIMEOUTS);
        RawConnection c = host.connect()) {
      String request = host.registerWorker("worker-slow", UndertowTestHost.worker("worker-slow"));
      // Everything but the last ten bytes of the body.
      c.send(request.substring(0, request.length() - 10));
      RawConnection.Reply reply = c.read();
      assertEquals(408, reply.status());
      assertTrue(reply.body().contains("did not arrive in full"), reply.body());
      assertEquals("close", reply.header("Connection"));
      assertTrue(c.closedByServer());
    }
  }

  @Test
  void aRequestWhoseHeadersStopArrivingLosesItsConnection() throws IOException {
    try (UndertowTestHost host = new UndertowTestHost(SHORT_TIMEOUTS);
        RawConnection c = host.connect()) {
      c.send(UndertowTestHost.readHead("/nothing-here")); // no blank line: the headers never end
      assertTrue(c.closedByServer());
    }
  }

  @Test
  void anIdleConnectionIsClosed() throws IOException {
    try (UndertowTestHost host = new UndertowTestHost(SHORT_TIMEOUTS);
        RawConnection c = host.connect()) {
      RawConnection.Reply reply =
          c.send(UndertowTestHost.readHead("/nothing-here") + "\r\n").read();
      assertEquals(404, reply.status());
      assertTrue(c.closedByServer());
    }
  }

  @Test
  void aRequestSentInTimeIsAnswered() throws IOException {
    try (UndertowTestHost host = new UndertowTestHost(SHORT_TIMEOUTS);
        RawConnection c = host.connect()) {
      RawConnection.Reply reply =
          c.send(host.registerWorker("worker-fast", UndertowTestHost.worker("worker-fast"))).read();
      assertEquals(200, reply.status(), reply.body());
      assertFalse("close".equals(reply.header("Connection")));
    }
  }

  /**
   * A registerWorker body padded with JSON whitespace to the host kit's limit plus {@code over}.
   */
  private static byte[] padded(String workerId, int over) {
    byte[] record = UndertowTestHost.worker(workerId);
    byte[] body = Arrays.copyOf(record, ProtocolHost.MAX_BODY_BYTES + over);
    Arrays.fill(body, record.length, body.length, (byte) ' ');
    return body;
  }

  private static String extraHeaders(int n) {
    StringBuilder headers = new StringBuilder();
    for (int i = 0; i < n; i++) {
      headers.append("X-Extra-").append(i).append(": ").append(i).append("\r\n");
    }
    return headers.toString();
  }
}
