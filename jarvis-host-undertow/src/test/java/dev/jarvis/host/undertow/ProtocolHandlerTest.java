package dev.jarvis.host.undertow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every request the binding takes is answered by the host kit: a success, or a refusal with a
 * {@code ProtocolError} and the protocol headers; never a 500 for bad input, never a stack trace.
 */
class ProtocolHandlerTest {

  static UndertowTestHost host;

  @BeforeAll
  static void start() {
    host = new UndertowTestHost(HttpLimits.defaults());
  }

  @AfterAll
  static void stop() {
    host.close();
  }

  @Test
  void aValidRegistrationIsAcceptedAndAnsweredWithTheProtocolHeaders() throws IOException {
    try (RawConnection c = host.connect()) {
      RawConnection.Reply reply =
          c.send(host.registerWorker("worker-ok", UndertowTestHost.worker("worker-ok"))).read();
      assertEquals(200, reply.status(), reply.body());
      assertEquals("v0.1", reply.header("Jarvis-Protocol-Version"));
      assertEquals("application/json", reply.header("Content-Type"));
      assertTrue(reply.body().contains("\"id\":\"worker-ok\""), reply.body());
    }
  }

  @ParameterizedTest(name = "{0} {1} is answered {2}")
  @CsvSource({
    "GET, /no-such-path, 404",
    "DELETE, /workers/w-1, 405",
    "GET, /, 404",
  })
  void aRequestOutsideTheSpecsOperationsIsAnsweredWithAProtocolError(
      String method, String path, int status) throws IOException {
    try (RawConnection c = host.connect()) {
      RawConnection.Reply reply =
          c.send(method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n")
              .read();
      assertEquals(status, reply.status(), reply.body());
      assertTrue(reply.body().contains("\"error_id\":\"unknown_state\""), reply.body());
      assertEquals("v0.1", reply.header("Jarvis-Protocol-Version"));
    }
  }

  @Test
  void aPathThatIsNotPercentEncodedCorrectlyIsRefused400BeforeTheHostKit() throws IOException {
    // Undertow's parser refuses it before any handler runs: a plain 400, and the connection closes.
    try (RawConnection c = host.connect()) {
      RawConnection.Reply reply =
          c.send("POST /work-sessions/ws%zz/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").read();
      assertEquals(400, reply.status());
      assertTrue(c.closedByServer());
    }
  }

  @ParameterizedTest(name = "the body {0} is refused with 400")
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"id\": ",
        "not json at all",
        "{\"id\": \"worker-dup\", \"id\": \"worker-dup\"}",
        "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
        "{\"id\": \"\\ud800\"}",
      })
  void aBodyThatIsNoProtocolRecordIsRefusedWithAProtocolError(String body) throws IOException {
    try (RawConnection c = host.connect()) {
      RawConnection.Reply reply =
          c.send(host.registerWorker("worker-dup", body.getBytes(StandardCharsets.UTF_8))).read();
      assertEquals(400, reply.status(), reply.body());
      assertTrue(reply.body().contains("\"error_id\""), reply.body());
      assertTrue(reply.body().contains("\"trace_id\":\"trace:undertow-"), reply.body());
    }
  }

  @Test
  void aRequestWithoutHostAuthIsRefused401() throws IOException {
    try (RawConnection c = host.connect()) {
      RawConnection.Reply reply =
          c.send("GET /work-sessions/ws-1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").read();
      assertEquals(401, reply.status(), reply.body());
      assertTrue(reply.body().contains("\"error_id\":\"unauthorized_actor\""), reply.body());
    }
  }

  @Test
  void aChunkedBodyIsReadInFull() throws IOException {
    byte[] worker = UndertowTestHost.worker("worker-chunked");
    String plain = host.registerWorker("worker-chunked", worker);
    String head = plain.substring(0, plain.indexOf("Content-Length"));
    int half = worker.length / 2;
    String chunked =
        head
            + "Transfer-Encoding: chunked\r\n\r\n"
            + Integer.toHexString(half)
            + "\r\n"
            + new String(worker, 0, half, StandardCharsets.ISO_8859_1)
            + "\r\n"
            + Integer.toHexString(worker.length - half)
            + "\r\n"
            + new String(worker, half, worker.length - half, StandardCharsets.ISO_8859_1)
            + "\r\n0\r\n\r\n";
    try (RawConnection c = host.connect()) {
      RawConnection.Reply reply = c.send(chunked).read();
      assertEquals(200, reply.status(), reply.body());
    }
  }

  @Test
  void manyRequestsOnOneConnectionAreAnsweredInOrder() throws IOException {
    try (RawConnection c = host.connect()) {
      for (int i = 0; i < 20; i++) {
        RawConnection.Reply reply =
            c.send(UndertowTestHost.readHead("/nothing-here-" + i) + "\r\n").read();
        assertEquals(404, reply.status(), reply.body());
      }
    }
  }
}
