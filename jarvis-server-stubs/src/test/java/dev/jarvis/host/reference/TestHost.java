package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.host.HostConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

/**
 * A reference host on a loopback port with a hand-moved clock and numbered trace ids, and a plain
 * {@link HttpClient} to talk to it. Workers and Actors are registered through the API by the admin.
 */
final class TestHost implements AutoCloseable {

  static final String TOKEN = "test-token";
  static final String ADMIN = "host-admin";
  static final Instant START = Instant.parse("2026-06-12T18:20:00Z");

  final MutableClock clock = new MutableClock(START);
  final AtomicInteger traces = new AtomicInteger();
  final ReferenceHost host;
  final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  private TestHost(UnaryOperator<HostConfig.Builder> settings) {
    host =
        ReferenceHost.start(
            ReferenceHostConfig.of(TOKEN)
                .withPolicy(Payloads.policy())
                .withHost(
                    b ->
                        settings.apply(
                            b.clock(clock)
                                .traceIds(() -> "trace:test-" + traces.incrementAndGet())
                                .idempotencyRetention(Duration.ofHours(1)))));
  }

  /** A host with the usual Workers and Actors registered. */
  static TestHost started() {
    return started(UnaryOperator.identity());
  }

  /** The same, with further host settings. */
  static TestHost started(UnaryOperator<HostConfig.Builder> settings) {
    TestHost t = new TestHost(settings);
    t.register(Payloads.worker(Payloads.HUMAN_WORKER, "human"));
    t.register(Payloads.worker(Payloads.AGENT_WORKER, "agent"));
    t.registerActor(Payloads.actor(Payloads.HUMAN, Payloads.HUMAN_WORKER, "human", true));
    t.registerActor(Payloads.actor(Payloads.AGENT, Payloads.AGENT_WORKER, "agent", true));
    return t;
  }

  /** A host with a WorkSession {@link Payloads#WS} created. */
  static TestHost withSession() {
    TestHost t = started();
    assertEquals(201, t.createSession(Payloads.WS).status());
    return t;
  }

  void register(JsonNode worker) {
    Answer a =
        send("PUT", "/workers/" + worker.path("id").asText(), mutation(ADMIN), worker.toString());
    assertEquals(200, a.status(), a.text());
  }

  void registerActor(JsonNode actor) {
    Answer a =
        send("PUT", "/actors/" + actor.path("id").asText(), mutation(ADMIN), actor.toString());
    assertEquals(200, a.status(), a.text());
  }

  Answer createSession(String id) {
    Map<String, String> headers = mutation(Payloads.HUMAN);
    headers.put("Jarvis-Expected-WorkSession-Revision", "0");
    headers.put("Jarvis-Previous-Event-Hash", "hash:protocol-genesis");
    return send("POST", "/work-sessions", headers, Payloads.workSession(id).toString());
  }

  /** Headers of a mutation without cursor: auth, version, Actor, a fresh key, now. */
  Map<String, String> mutation(String actorId) {
    Map<String, String> headers = read(actorId);
    headers.put("Jarvis-Idempotency-Key", UUID.randomUUID().toString());
    headers.put("Jarvis-Request-Timestamp", RequestTimestamp.format(clock.instant()));
    return headers;
  }

  /** Headers of a WorkSession mutation at the given cursor. */
  Map<String, String> scoped(String actorId, ChainCursor cursor) {
    Map<String, String> headers = mutation(actorId);
    headers.put("Jarvis-Expected-WorkSession-Revision", Long.toString(cursor.revision()));
    headers.put("Jarvis-Previous-Event-Hash", cursor.lastEventHash());
    return headers;
  }

  /** Headers of a read. */
  Map<String, String> read(String actorId) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Authorization", "Bearer " + TOKEN);
    headers.put("Jarvis-Protocol-Version", "v0.1");
    headers.put("Jarvis-Actor-Id", actorId);
    return headers;
  }

  /** POSTs to a WorkSession path at its current cursor. */
  Answer scopedPost(String path, String actorId, JsonNode body) {
    return send(
        "POST", "/work-sessions/" + Payloads.WS + path, scoped(actorId, cursor()), body.toString());
  }

  /** The current cursor of {@link Payloads#WS}. */
  ChainCursor cursor() {
    JsonNode ws = get("/work-sessions/" + Payloads.WS, Payloads.HUMAN).json();
    return new ChainCursor(ws.path("revision").asLong(), ws.path("last_event_hash").asText());
  }

  Answer get(String path, String actorId) {
    return send("GET", path, read(actorId), null);
  }

  Answer send(String method, String path, Map<String, String> headers, String body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(host.baseUri() + path.substring(1)));
    headers.forEach(request::header);
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    request.method(
        method,
        body == null
            ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body));
    try {
      return Answer.of(http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    host.close();
  }
}
