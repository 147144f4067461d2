package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.host.Credentials;
import dev.jarvis.host.HostConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
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

  /** A human Actor of no WorkSession's Worker: registered by a test that needs it. */
  static final String OUTSIDER = "actor-human-999";

  static final Instant START = Instant.parse("2026-06-12T18:20:00Z");

  final MutableClock clock = new MutableClock(START);
  final AtomicInteger traces = new AtomicInteger();

  /** The in-process host, or null for a host in another process ({@link #remote}). */
  final ReferenceHost host;

  private final URI base;
  final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

  /** Each Actor's own bearer token, when the host binds credentials to Actors. */
  private final Map<String, String> tokens;

  private TestHost(URI remote) {
    host = null;
    base = remote;
    tokens = Map.of();
    // A host in another process reads the system clock.
    clock.advance(Duration.between(START, Instant.now()));
  }

  /** A client of a host running in another process, on the system clock. */
  static TestHost remote(URI base) {
    return new TestHost(base);
  }

  private TestHost(UnaryOperator<HostConfig.Builder> settings) {
    this(ReferenceHostConfig.demo(TOKEN), Map.of(), settings);
  }

  private TestHost(
      ReferenceHostConfig.Builder config,
      Map<String, String> tokens,
      UnaryOperator<HostConfig.Builder> settings) {
    this.tokens = Map.copyOf(tokens);
    host =
        ReferenceHost.start(
            config
                .policy(Payloads.policy())
                .host(
                    b ->
                        settings.apply(
                            b.clock(clock)
                                .traceIds(() -> "trace:test-" + traces.incrementAndGet())
                                .idempotencyRetention(Duration.ofHours(1))))
                .build());
    base = host.baseUri();
  }

  /** A host with the usual Workers and Actors registered. */
  static TestHost started() {
    return started(UnaryOperator.identity());
  }

  /** The same, with further host settings. */
  static TestHost started(UnaryOperator<HostConfig.Builder> settings) {
    return registered(new TestHost(settings));
  }

  /** The same, on a reference host configured further (runtime, readiness check). */
  static TestHost started(
      UnaryOperator<ReferenceHostConfig.Builder> config,
      UnaryOperator<HostConfig.Builder> settings) {
    return registered(
        new TestHost(config.apply(ReferenceHostConfig.demo(TOKEN)), Map.of(), settings));
  }

  /** Registers the usual Workers and Actors through the API. */
  static TestHost registered(TestHost t) {
    t.register(Payloads.worker(Payloads.HUMAN_WORKER, "human"));
    t.register(Payloads.worker(Payloads.AGENT_WORKER, "agent"));
    t.registerActor(Payloads.actor(Payloads.HUMAN, Payloads.HUMAN_WORKER, "human", true));
    t.registerActor(Payloads.actor(Payloads.AGENT, Payloads.AGENT_WORKER, "agent", true));
    return t;
  }

  /**
   * A host whose callers hold credentials bound to Actors ({@link Credentials}): the admin, the
   * human, the agent and {@link #OUTSIDER} each have a token of their own ({@link #tokenOf}), none
   * may act as another.
   */
  static TestHost withCredentials() {
    return withCredentials(UnaryOperator.identity());
  }

  /** The same, with further host settings. */
  static TestHost withCredentials(UnaryOperator<HostConfig.Builder> settings) {
    Map<String, String> tokens =
        Map.of(
            ADMIN,
            "token-of-the-admin",
            Payloads.HUMAN,
            "token-of-the-human",
            Payloads.AGENT,
            "token-of-the-agent",
            OUTSIDER,
            "token-of-an-outsider");
    List<Credentials.Credential> credentials = new ArrayList<>();
    tokens.forEach(
        (actor, token) ->
            credentials.add(
                new Credentials.Credential(
                    HexFormat.of().parseHex(Credentials.sha256Hex(token)),
                    Set.of(actor),
                    actor.equals(ADMIN))));
    TestHost t =
        new TestHost(
            ReferenceHostConfig.builder().auth(Credentials.of(credentials)), tokens, settings);
    t.register(Payloads.worker(Payloads.HUMAN_WORKER, "human"));
    t.register(Payloads.worker(Payloads.AGENT_WORKER, "agent"));
    t.registerActor(Payloads.actor(Payloads.HUMAN, Payloads.HUMAN_WORKER, "human", true));
    t.registerActor(Payloads.actor(Payloads.AGENT, Payloads.AGENT_WORKER, "agent", true));
    assertEquals(201, t.createSession(Payloads.WS).status());
    return t;
  }

  /** The bearer token this Actor's caller holds. */
  String tokenOf(String actorId) {
    return tokens.getOrDefault(actorId, TOKEN);
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
    headers.put("Authorization", "Bearer " + tokenOf(actorId));
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
    return cursorOf(Payloads.WS);
  }

  /** The current cursor of a WorkSession. */
  ChainCursor cursorOf(String workSessionId) {
    JsonNode ws = get("/work-sessions/" + workSessionId, Payloads.HUMAN).json();
    return new ChainCursor(ws.path("revision").asLong(), ws.path("last_event_hash").asText());
  }

  Answer get(String path, String actorId) {
    return send("GET", path, read(actorId), null);
  }

  Answer send(String method, String path, Map<String, String> headers, String body) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path.substring(1)));
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
    if (host != null) {
      host.close();
    }
  }
}
