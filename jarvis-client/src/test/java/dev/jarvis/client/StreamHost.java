package dev.jarvis.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.eventlog.EventStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A host on loopback (the JDK's HTTP server) whose answers arrive over time: each request to a path
 * is answered by the test's script for that path, given which request of the path it is (0 for the
 * first), so a stream can send frames, flush, stay open or drop. Every request's headers and query
 * are kept for the test to read.
 */
final class StreamHost implements AutoCloseable {

  /** How the host answers one request. */
  @FunctionalInterface
  interface Script {
    void answer(Answer answer, int index) throws IOException, InterruptedException;
  }

  /** One request as the host received it. */
  record Received(String path, String query, Headers headers) {
    String header(String name) {
      return headers.getFirst(name);
    }
  }

  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final Map<String, Script> scripts = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
  final List<Received> received = new CopyOnWriteArrayList<>();

  /** Released when the test ends: every stream still held open ends then. */
  final CountDownLatch release = new CountDownLatch(1);

  /** Counted down when an answer finds its client gone (a write fails). */
  final CountDownLatch clientGone = new CountDownLatch(1);

  StreamHost() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(threads);
    server.createContext(
        "/",
        exchange -> {
          String path = exchange.getRequestURI().getPath();
          received.add(
              new Received(
                  path, exchange.getRequestURI().getRawQuery(), exchange.getRequestHeaders()));
          Script script = scripts.get(path);
          int index = counts.computeIfAbsent(path, p -> new AtomicInteger()).getAndIncrement();
          try (exchange) {
            if (script == null) {
              exchange.sendResponseHeaders(404, -1);
              return;
            }
            script.answer(new Answer(exchange), index);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          } catch (IOException e) {
            clientGone.countDown(); // the client went away before the script was done
          }
        });
    server.start();
  }

  String baseUri() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  StreamHost on(String path, Script script) {
    scripts.put(path, script);
    return this;
  }

  /** The requests made to {@code path}, in order. */
  List<Received> to(String path) {
    return received.stream().filter(r -> r.path().equals(path)).toList();
  }

  @Override
  public void close() {
    release.countDown();
    server.stop(0);
    threads.shutdownNow();
  }

  /** One answer, written as the script goes. */
  final class Answer {
    private final HttpExchange exchange;
    private OutputStream body;

    Answer(HttpExchange exchange) {
      this.exchange = exchange;
    }

    String header(String name) {
      return exchange.getRequestHeaders().getFirst(name);
    }

    /** The request's raw query; empty for none. */
    String query() {
      String query = exchange.getRequestURI().getRawQuery();
      return query == null ? "" : query;
    }

    /** Opens a stream: 200, {@code text/event-stream}, the protocol headers. */
    Answer stream(String capabilities) throws IOException {
      Headers headers = exchange.getResponseHeaders();
      headers.add("Content-Type", EventStream.MEDIA_TYPE);
      headers.add("Cache-Control", "no-store");
      headers.add("Jarvis-Protocol-Version", "v0.1");
      headers.add("Jarvis-Host-Capabilities", capabilities);
      exchange.sendResponseHeaders(200, 0);
      body = exchange.getResponseBody();
      return this;
    }

    /** Answers JSON with the protocol headers. */
    void json(int status, String capabilities, String json) throws IOException {
      Headers headers = exchange.getResponseHeaders();
      headers.add("Content-Type", "application/json");
      headers.add("Jarvis-Protocol-Version", "v0.1");
      headers.add("Jarvis-Host-Capabilities", capabilities);
      byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status, bytes.length);
      exchange.getResponseBody().write(bytes);
    }

    /** Sends each event's frame, flushed. */
    Answer frames(List<JsonNode> events) throws IOException {
      for (JsonNode event : events) {
        body.write(EventStream.frame(event.path("sequence").asLong(), oneLine(event)));
      }
      body.flush();
      return this;
    }

    /** Sends raw text (a comment, a malformed frame), flushed. */
    Answer raw(String text) throws IOException {
      body.write(text.getBytes(StandardCharsets.UTF_8));
      body.flush();
      return this;
    }

    /**
     * Keeps the stream open, a heartbeat every 20 ms, until the test ends or the client goes (a
     * write fails: {@link #clientGone}).
     */
    void holdOpen() throws InterruptedException {
      try {
        while (!release.await(20, TimeUnit.MILLISECONDS)) {
          body.write(EventStream.HEARTBEAT.getBytes(StandardCharsets.UTF_8));
          body.flush();
        }
      } catch (IOException gone) {
        clientGone.countDown();
      }
    }

    /** Keeps the stream open and silent until the test ends. */
    void silent() throws InterruptedException {
      release.await(60, TimeUnit.SECONDS);
    }
  }

  /** An {@code event-log} page of {@code events}, the last. */
  static String page(String workSessionId, List<JsonNode> events) {
    com.fasterxml.jackson.databind.node.ObjectNode page = JarvisJson.mapper().createObjectNode();
    page.put("work_session_id", workSessionId);
    page.putArray("events").addAll(events);
    page.put("has_more", false);
    return oneLine(page);
  }

  static String oneLine(JsonNode event) {
    try {
      return JarvisJson.mapper().writeValueAsString(event);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
