package dev.jarvis.cli.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The light load's HTTP against a scripted server on loopback: each framing of an answer read, a
 * connection kept while the server keeps it, and opened again when the server closes it.
 */
class PlainHttpConnectionTest {

  private static final String BODY = "{\"revision\":2}";

  /** Answers every request on a connection with {@code answer}, counting connections. */
  private static final class ScriptedServer implements AutoCloseable {
    final ServerSocket socket;
    final AtomicInteger connections = new AtomicInteger();
    final List<String> requests = new CopyOnWriteArrayList<>();
    final Thread thread;

    ScriptedServer(String answer, boolean closeAfterEach) throws IOException {
      socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
      thread =
          new Thread(
              () -> {
                while (!socket.isClosed()) {
                  try (Socket client = socket.accept()) {
                    connections.incrementAndGet();
                    serve(client, answer, closeAfterEach);
                  } catch (IOException e) {
                    // closed by the test, or the client went away: wait for the next
                  }
                }
              });
      thread.setDaemon(true);
      thread.start();
    }

    private void serve(Socket client, String answer, boolean closeAfterEach) throws IOException {
      InputStream in = client.getInputStream();
      OutputStream out = client.getOutputStream();
      while (true) {
        String head = head(in);
        if (head.isEmpty()) {
          return;
        }
        int length = 0;
        for (String line : head.split("\r\n")) {
          if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
            length = Integer.parseInt(line.substring(15).trim());
          }
        }
        String body = new String(in.readNBytes(length), StandardCharsets.UTF_8);
        requests.add(head + body);
        out.write(answer.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        if (closeAfterEach) {
          return;
        }
      }
    }

    private static String head(InputStream in) throws IOException {
      ByteArrayOutputStream head = new ByteArrayOutputStream();
      int b;
      while ((b = in.read()) >= 0) {
        head.write(b);
        if (head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
          break;
        }
      }
      return head.toString(StandardCharsets.ISO_8859_1);
    }

    URI uri() {
      return URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/base");
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "HTTP/1.1 201 Created\r\nContent-Length: 14\r\nJarvis-Last-Event-Hash: h\r\n\r\n" + BODY,
        "HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\njarvis-last-event-hash: h\r\n\r\n"
            + "4\r\n{\"re\r\na;ext=1\r\nvision\":2}\r\n0\r\n\r\n",
        "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 14\r\n"
            + "Jarvis-Last-Event-Hash: h\r\n\r\n"
            + BODY
      })
  void anAnswerIsReadWholeAndTheConnectionKept(String answer) throws Exception {
    try (ScriptedServer server = new ScriptedServer(answer, false);
        PlainHttpConnection connection = new PlainHttpConnection(server.uri())) {
      for (int i = 0; i < 3; i++) {
        LoadAnswer read =
            connection.exchange(
                "POST",
                "/base/events",
                Map.of("X-Test", "1"),
                "{}".getBytes(StandardCharsets.UTF_8));
        assertEquals(201, read.status());
        assertEquals("h", read.header("Jarvis-Last-Event-Hash").orElseThrow());
        assertArrayEquals(BODY.getBytes(StandardCharsets.UTF_8), read.body());
      }
      assertEquals(1, server.connections.get());
      String first = server.requests.get(0);
      assertEquals(
          "POST /base/events HTTP/1.1\r\nHost: 127.0.0.1:"
              + server.socket.getLocalPort()
              + "\r\nX-Test: 1\r\nContent-Length: 2\r\n\r\n{}",
          first);
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "HTTP/1.1 200 OK\r\nContent-Length: 14\r\nConnection: close\r\n\r\n" + BODY,
        "HTTP/1.1 200 OK\r\n\r\n" + BODY, // no length: the body runs to the connection's end
        "HTTP/1.0 200 OK\r\nContent-Length: 14\r\n\r\n" + BODY
      })
  void aConnectionTheServerClosesIsOpenedAgain(String answer) throws Exception {
    try (ScriptedServer server = new ScriptedServer(answer, true);
        PlainHttpConnection connection = new PlainHttpConnection(server.uri())) {
      for (int i = 0; i < 3; i++) {
        LoadAnswer read = connection.exchange("GET", "/base/ws", Map.of(), new byte[0]);
        assertEquals(200, read.status());
        assertArrayEquals(BODY.getBytes(StandardCharsets.UTF_8), read.body());
      }
      assertEquals(3, server.connections.get());
    }
  }

  @Test
  void anAnswerCutShortIsAFailureAndTheNextRequestReconnects() throws Exception {
    try (ScriptedServer server =
            new ScriptedServer("HTTP/1.1 201 Created\r\nContent-Length: 99\r\n\r\n{}", true);
        PlainHttpConnection connection = new PlainHttpConnection(server.uri())) {
      assertThrows(
          IOException.class, () -> connection.exchange("GET", "/base/ws", Map.of(), new byte[0]));
      assertThrows(
          IOException.class, () -> connection.exchange("GET", "/base/ws", Map.of(), new byte[0]));
      assertEquals(2, server.connections.get());
    }
  }

  @Test
  void anHttpsHostIsRefusedUpFront() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new PlainHttpConnection(URI.create("https://127.0.0.1:8443/")));
  }
}
