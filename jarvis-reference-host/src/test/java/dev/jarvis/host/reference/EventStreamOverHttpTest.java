package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.eventlog.EventStream;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@code event-stream} capability on the reference host over HTTP (Undertow, loopback): a
 * member's stream carries each event as it is committed, a long poll answers at the first event, a
 * subscriber that stops reading is cut while another keeps up, and closing the host ends every
 * stream cleanly and within its grace.
 */
@Timeout(60)
class EventStreamOverHttpTest {

  private static final long BOUND = 10;

  static HttpRequest.Builder get(TestHost t, String pathAndQuery, String actor) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(t.host.baseUri() + pathAndQuery.substring(1)));
    t.read(actor).forEach(request::header);
    return request;
  }

  static Stream<String> subscribe(TestHost t, String actor) throws Exception {
    HttpResponse<Stream<String>> response =
        t.http.send(
            get(t, "/work-sessions/" + Payloads.WS + "/events", actor)
                .header("Accept", EventStream.MEDIA_TYPE)
                .build(),
            HttpResponse.BodyHandlers.ofLines());
    assertEquals(200, response.statusCode());
    assertEquals(
        EventStream.MEDIA_TYPE, response.headers().firstValue("Content-Type").orElseThrow());
    return response.body();
  }

  /** The next event frame's event, read from a stream's lines (comments skipped). */
  static CompletableFuture<JsonNode> nextEvent(Iterator<String> lines) {
    return CompletableFuture.supplyAsync(
        () -> {
          EventStream.Reader reader = new EventStream.Reader();
          while (lines.hasNext()) {
            var item = reader.line(lines.next());
            if (item.isPresent() && item.get() instanceof EventStream.Reader.Item.Frame f) {
              try {
                return JarvisJson.mapper().readTree(f.data());
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            }
          }
          throw new IllegalStateException("the stream ended");
        });
  }

  private static void decide(TestHost t, String id) {
    assertEquals(
        201,
        t.scopedPost(
                "/policy-decisions", Payloads.AGENT, Payloads.decision(id, "summarize", "allow"))
            .status());
  }

  @Test
  void aMembersStreamCarriesEachEventAsItIsCommitted() throws Exception {
    try (TestHost t = TestHost.withSession()) {
      Iterator<String> lines = subscribe(t, Payloads.AGENT).iterator();
      assertEquals(1, nextEvent(lines).get(BOUND, TimeUnit.SECONDS).path("sequence").asLong());
      CompletableFuture<JsonNode> next = nextEvent(lines);
      decide(t, "pd-1");
      JsonNode event = next.get(BOUND, TimeUnit.SECONDS);
      assertEquals(2, event.path("sequence").asLong());
      assertEquals("policy_decision.recorded", event.path("type").asText());
    }
  }

  @Test
  void onJerseyTooAStreamCarriesEachEventAsItIsCommittedAndALongPollWaits() throws Exception {
    try (TestHost t = TestHost.started(c -> c.runtime(HttpRuntime.JERSEY), b -> b)) {
      assertEquals(201, t.createSession(Payloads.WS).status());
      Iterator<String> lines = subscribe(t, Payloads.AGENT).iterator();
      assertEquals(1, nextEvent(lines).get(BOUND, TimeUnit.SECONDS).path("sequence").asLong());
      CompletableFuture<JsonNode> next = nextEvent(lines);
      CompletableFuture<HttpResponse<String>> poll =
          t.http.sendAsync(
              get(t, "/work-sessions/" + Payloads.WS + "/events?after=1&wait=30", Payloads.HUMAN)
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      decide(t, "pd-1");
      assertEquals(2, next.get(BOUND, TimeUnit.SECONDS).path("sequence").asLong());
      HttpResponse<String> page = poll.get(BOUND, TimeUnit.SECONDS);
      assertEquals(200, page.statusCode(), page.body());
      assertEquals(
          2,
          JarvisJson.mapper()
              .readTree(page.body())
              .path("events")
              .path(0)
              .path("sequence")
              .asLong());
    }
  }

  @Test
  void aLongPollAnswersAtTheFirstEventAfterItsCursor() throws Exception {
    try (TestHost t = TestHost.withSession()) {
      CompletableFuture<HttpResponse<String>> poll =
          t.http.sendAsync(
              get(t, "/work-sessions/" + Payloads.WS + "/events?after=1&wait=30", Payloads.AGENT)
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      decide(t, "pd-1");
      HttpResponse<String> page = poll.get(BOUND, TimeUnit.SECONDS);
      assertEquals(200, page.statusCode(), page.body());
      assertEquals(
          2,
          JarvisJson.mapper()
              .readTree(page.body())
              .path("events")
              .path(0)
              .path("sequence")
              .asLong());
    }
  }

  @Test
  void aSubscriberThatStopsReadingIsCutWhileAnotherKeepsUp() throws Exception {
    try (TestHost t =
        TestHost.started(
            b ->
                b.streams(
                    dev.jarvis.host.EventStreamLimits.DEFAULTS.withWriteTimeout(
                        Duration.ofMillis(500))))) {
      assertEquals(201, t.createSession(Payloads.WS).status());
      // A raw connection that asks for the stream and never reads a byte of it.
      URI base = t.host.baseUri();
      try (Socket stuck = new Socket(base.getHost(), base.getPort())) {
        stuck.setReceiveBufferSize(4096);
        StringBuilder request =
            new StringBuilder("GET /work-sessions/" + Payloads.WS + "/events HTTP/1.1\r\n")
                .append("Host: ")
                .append(base.getHost())
                .append("\r\nAccept: text/event-stream\r\n");
        for (Map.Entry<String, String> h : t.read(Payloads.HUMAN).entrySet()) {
          request.append(h.getKey()).append(": ").append(h.getValue()).append("\r\n");
        }
        OutputStream out = stuck.getOutputStream();
        out.write(request.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
        out.flush();
        Iterator<String> keeping = subscribe(t, Payloads.AGENT).iterator();
        nextEvent(keeping).get(BOUND, TimeUnit.SECONDS);
        // Large events fill the stuck connection's buffers; the stream that reads gets each one.
        JsonNode last = null;
        for (int i = 0; i < 200 && t.host.host().openStreams() > 1; i++) {
          CompletableFuture<JsonNode> next = nextEvent(keeping);
          decideLarge(t, "pd-" + i);
          last = next.get(BOUND, TimeUnit.SECONDS);
        }
        assertEquals(1, t.host.host().openStreams(), "the subscriber that stopped reading is cut");
        assertTrue(last != null && last.path("sequence").asLong() > 1);
        CompletableFuture<JsonNode> after = nextEvent(keeping);
        decide(t, "pd-after");
        assertEquals(
            "pd-after",
            after.get(BOUND, TimeUnit.SECONDS).path("payload").path("object_id").asText());
      }
    }
  }

  @Test
  void openStreamsHoldNoThreadEach() throws Exception {
    try (TestHost t =
        TestHost.started(
            b ->
                b.streams(
                    dev.jarvis.host.EventStreamLimits.DEFAULTS.withSubscribers(500, 2_000)))) {
      assertEquals(201, t.createSession(Payloads.WS).status());
      java.util.List<Socket> sockets = new java.util.ArrayList<>();
      try {
        // One stream first: the host's shared timer and pool, the client's threads, all started.
        sockets.add(openedStream(t));
        java.lang.management.ThreadMXBean threads =
            java.lang.management.ManagementFactory.getThreadMXBean();
        int before = threads.getThreadCount();
        for (int i = 0; i < 200; i++) {
          sockets.add(openedStream(t));
        }
        assertEquals(201, t.host.host().openStreams());
        int grown = threads.getThreadCount() - before;
        // A thread per stream would be 200 more; the few allowed are the shared pool's readers.
        assertTrue(grown < 20, "200 streams opened " + grown + " threads");
      } finally {
        for (Socket s : sockets) {
          s.close();
        }
      }
    }
  }

  /** A raw stream of the agent's, once its first frame has come (read on this thread). */
  private static Socket openedStream(TestHost t) throws Exception {
    Socket socket = rawStream(t);
    socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(BOUND));
    firstFrame(socket);
    return socket;
  }

  /** A raw connection that has asked for the agent's stream. */
  private static Socket rawStream(TestHost t) throws Exception {
    URI base = t.host.baseUri();
    Socket socket = new Socket(base.getHost(), base.getPort());
    StringBuilder request =
        new StringBuilder("GET /work-sessions/" + Payloads.WS + "/events HTTP/1.1\r\n")
            .append("Host: x\r\nAccept: text/event-stream\r\n");
    t.read(Payloads.AGENT)
        .forEach((k, v) -> request.append(k).append(": ").append(v).append("\r\n"));
    socket
        .getOutputStream()
        .write(request.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
    return socket;
  }

  /** Reads a raw stream up to its first frame's data; answers the reader, positioned after it. */
  private static BufferedReader firstFrame(Socket socket) throws Exception {
    BufferedReader in =
        new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
    String line;
    while ((line = in.readLine()) != null && !line.startsWith("data:")) {
      // status line, headers, the first frame's id
    }
    assertTrue(line != null, "the stream carried its first frame");
    return in;
  }

  /** A human's note of about 60 KB. */
  private static void decideLarge(TestHost t, String id) {
    dev.jarvis.core.chain.ChainCursor cursor = t.cursor();
    var draft = Payloads.event(id, "note.added", Payloads.HUMAN);
    ((com.fasterxml.jackson.databind.node.ObjectNode) draft.path("payload"))
        .put("summary", "n".repeat(60_000));
    var event = dev.jarvis.core.chain.EventChain.next(cursor, draft);
    var a =
        t.send(
            "POST",
            "/work-sessions/" + Payloads.WS + "/events",
            t.scoped(Payloads.HUMAN, cursor),
            event.toString());
    assertEquals(201, a.status(), a.text());
  }

  @Test
  void closingTheHostEndsEveryStreamCleanlyAndPromptly() throws Exception {
    TestHost t = TestHost.withSession();
    try (Socket socket = rawStream(t)) {
      BufferedReader in = firstFrame(socket);
      String line;
      long start = System.nanoTime();
      CompletableFuture<Void> closed = CompletableFuture.runAsync(t::close);
      String ended = null;
      while ((line = in.readLine()) != null) {
        if (line.startsWith(EventStream.END_PREFIX)) {
          ended = line;
        }
      }
      closed.get(BOUND, TimeUnit.SECONDS);
      assertEquals(EventStream.END_PREFIX + "shutdown", ended);
      assertTrue(
          System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5),
          "the open stream did not hold the shutdown's drain");
    }
  }
}
