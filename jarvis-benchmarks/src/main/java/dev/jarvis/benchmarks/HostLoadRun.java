package dev.jarvis.benchmarks;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.tomakehurst.wiremock.WireMockServer;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.host.reference.ReferenceHost;
import dev.jarvis.host.reference.ReferenceHostConfig;
import dev.jarvis.store.jdbc.JdbcHostStores;
import dev.jarvis.store.jdbc.JdbcStoreSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Logger;

/**
 * Host load run: scoped mutations ({@code appendJarvisEvent}, correct cursors built with {@link
 * EventChain}) per second and latency percentiles on loopback, several client threads each on its
 * own WorkSession, against (a) the reference host and (b) WireMock answering the same requests with
 * a canned 201, in one run. Bounded: per target a warm-up phase and a measured phase, each capped
 * in time and in requests per thread. Run: see docs/benchmarks.md.
 *
 * <p>Arguments (all optional): threads, warm-up seconds, measured seconds, a PostgreSQL JDBC URL.
 * With the URL it also runs the reference host on PostgreSQL, one instance and two instances
 * sharing the database (threads split between them), each in a fresh schema dropped afterwards.
 */
public final class HostLoadRun {

  static final String TOKEN = "bench-token";
  static final String ADMIN = "host-admin";
  static final String HUMAN = "actor-human-001";
  static final String AGENT = "actor-agent-001";
  static final int MAX_REQUESTS_PER_THREAD_AND_PHASE = 2_000_000;
  static final ObjectMapper MAPPER = JarvisJson.mapper();

  /** Held here: JUL keeps loggers weakly, and a collected logger forgets its level. */
  static final Logger REQUEST_LOG = Logger.getLogger("dev.jarvis.host.reference.requests");

  private HostLoadRun() {}

  public static void main(String[] args) throws Exception {
    int threads = args.length > 0 ? Integer.parseInt(args[0]) : 8;
    int warmUpSeconds = args.length > 1 ? Integer.parseInt(args[1]) : 30;
    int measuredSeconds = args.length > 2 ? Integer.parseInt(args[2]) : 30;
    Optional<String> postgres = args.length > 3 ? Optional.of(args[3]) : Optional.empty();
    // The reference host logs one line per request at INFO; a console log line per request would
    // measure the terminal, so the request log is kept quiet here.
    Logger.getLogger("dev.jarvis.host.reference.requests")
        .setLevel(java.util.logging.Level.WARNING);
    System.out.printf(
        Locale.ROOT,
        "threads=%d warm-up=%ds measured=%ds cpus=%d java=%s%n",
        threads,
        warmUpSeconds,
        measuredSeconds,
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("java.version"));

    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    List<String> results = new ArrayList<>();

    try (ReferenceHost host =
        ReferenceHost.start(ReferenceHostConfig.of(TOKEN).withPolicy(policy()))) {
      URI base = URI.create(host.baseUri().toString().replaceAll("/+$", ""));
      setUpReferenceHost(http, base, threads);
      results.add(
          run("reference host", http, bases(threads, base), warmUpSeconds, measuredSeconds));
    }
    if (postgres.isPresent()) {
      for (int instances = 1; instances <= 2; instances++) {
        results.add(
            onPostgres(postgres.get(), instances, http, threads, warmUpSeconds, measuredSeconds));
      }
    }

    WireMockServer wireMock =
        new WireMockServer(
            options().bindAddress("127.0.0.1").dynamicPort().disableRequestJournal());
    wireMock.start();
    try {
      wireMock.stubFor(
          post(urlPathMatching("/work-sessions/[^/]+/events"))
              .willReturn(
                  aResponse()
                      .withStatus(201)
                      .withHeader("Content-Type", "application/json")
                      .withHeader("Jarvis-Protocol-Version", "v0.1")
                      .withHeader("Jarvis-Host-Capabilities", "cursor-headers")
                      .withHeader("Jarvis-WorkSession-Revision", "2")
                      .withHeader(
                          "Jarvis-Last-Event-Hash",
                          EventChain.next(ChainCursor.GENESIS, draft("ws-load-0", 0, 0))
                              .path("event_hash")
                              .asText())
                      .withBody(
                          EventChain.next(ChainCursor.GENESIS, draft("ws-load-0", 0, 0))
                              .toString())));
      URI base = URI.create("http://127.0.0.1:" + wireMock.port());
      results.add(
          run("WireMock canned", http, bases(threads, base), warmUpSeconds, measuredSeconds));
    } finally {
      wireMock.stop();
    }
    System.out.println();
    results.forEach(System.out::println);
  }

  /** Every thread on the same host. */
  static URI[] bases(int threads, URI base) {
    URI[] bases = new URI[threads];
    Arrays.fill(bases, base);
    return bases;
  }

  /**
   * The reference host on PostgreSQL: {@code instances} hosts on one fresh schema, the threads
   * spread over them in turn.
   */
  static String onPostgres(
      String url,
      int instances,
      HttpClient http,
      int threads,
      int warmUpSeconds,
      int measuredSeconds)
      throws Exception {
    String schema = "jarvis_bench_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    List<ReferenceHost> hosts = new ArrayList<>();
    try {
      for (int i = 0; i < instances; i++) {
        hosts.add(
            ReferenceHost.start(
                ReferenceHostConfig.of(TOKEN)
                    .withPolicy(policy())
                    .withStores(
                        JdbcHostStores.open(
                            JdbcStoreSettings.of(url)
                                .withSchema(schema)
                                .withPoolSize(Math.max(4, threads / instances))))));
      }
      URI[] bases = new URI[threads];
      for (int t = 0; t < threads; t++) {
        bases[t] = URI.create(hosts.get(t % instances).baseUri().toString().replaceAll("/+$", ""));
      }
      setUpReferenceHost(http, bases[0], threads);
      return run(
          "reference host, PostgreSQL, " + instances + " instance(s)",
          http,
          bases,
          warmUpSeconds,
          measuredSeconds);
    } finally {
      hosts.forEach(ReferenceHost::close);
      try (Connection c = DriverManager.getConnection(url);
          Statement s = c.createStatement()) {
        s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
      }
    }
  }

  // ---- setting up the reference host: Workers, Actors, one WorkSession per thread ----

  static void setUpReferenceHost(HttpClient http, URI base, int threads) {
    put(http, base, "/workers/worker-human-001", ADMIN, worker("worker-human-001", "human"));
    put(http, base, "/workers/worker-agent-001", ADMIN, worker("worker-agent-001", "agent"));
    put(http, base, "/actors/" + HUMAN, ADMIN, actor(HUMAN, "worker-human-001", "human"));
    put(http, base, "/actors/" + AGENT, ADMIN, actor(AGENT, "worker-agent-001", "agent"));
    for (int t = 0; t < threads; t++) {
      HttpRequest.Builder create = mutation(base.resolve("/work-sessions"), HUMAN);
      create.header("Jarvis-Expected-WorkSession-Revision", "0");
      create.header("Jarvis-Previous-Event-Hash", ChainCursor.GENESIS.lastEventHash());
      expect(201, send(http, create, workSession("ws-load-" + t).toString()));
    }
  }

  static void put(HttpClient http, URI base, String path, String actor, JsonNode body) {
    HttpRequest.Builder put = mutation(base.resolve(path), actor);
    expect(200, send(http, put.method("PUT", publisher(body.toString())), null));
  }

  static ChainCursor readCursor(HttpClient http, URI base, String session) {
    HttpRequest.Builder read =
        HttpRequest.newBuilder(base.resolve("/work-sessions/" + session))
            .header("Authorization", "Bearer " + TOKEN)
            .header("Jarvis-Protocol-Version", "v0.1")
            .header("Jarvis-Actor-Id", HUMAN)
            .GET();
    HttpResponse<byte[]> answer = send(http, read, null);
    expect(200, answer);
    try {
      JsonNode ws = MAPPER.readTree(answer.body());
      return new ChainCursor(ws.path("revision").asLong(), ws.path("last_event_hash").asText());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  // ---- the load ----

  static String run(
      String name, HttpClient http, URI[] bases, int warmUpSeconds, int measuredSeconds)
      throws InterruptedException {
    int threads = bases.length;
    boolean realHost = name.startsWith("reference");
    ChainCursor[] cursors = new ChainCursor[threads];
    for (int t = 0; t < threads; t++) {
      cursors[t] = realHost ? readCursor(http, bases[t], "ws-load-" + t) : ChainCursor.GENESIS;
    }
    int[] counter = new int[threads];
    phase(http, bases, warmUpSeconds, cursors, counter, realHost);
    Phase measured = phase(http, bases, measuredSeconds, cursors, counter, realHost);
    String line =
        String.format(
            Locale.ROOT,
            "%-40s %8.0f req/s  p50 %7.0f µs  p99 %7.0f µs  p99.9 %7.0f µs  (%d ok, %d errors,"
                + " %.1f s)",
            name,
            measured.ok / measured.seconds,
            measured.percentile(0.50),
            measured.percentile(0.99),
            measured.percentile(0.999),
            measured.ok,
            measured.errors,
            measured.seconds);
    System.out.println(line);
    return line;
  }

  record Phase(long ok, long errors, double seconds, long[] micros) {
    double percentile(double p) {
      if (micros.length == 0) {
        return Double.NaN;
      }
      return micros[Math.min(micros.length - 1, (int) Math.ceil(p * micros.length) - 1)];
    }
  }

  static Phase phase(
      HttpClient http,
      URI[] bases,
      int seconds,
      ChainCursor[] cursors,
      int[] counter,
      boolean realHost)
      throws InterruptedException {
    int threads = bases.length;
    long[][] latencies = new long[threads][];
    int[] counts = new int[threads];
    long[] errors = new long[threads];
    CountDownLatch start = new CountDownLatch(1);
    long deadline = System.nanoTime() + seconds * 1_000_000_000L + 200_000_000L;
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int me = t;
      latencies[t] = new long[1 << 16];
      Thread worker =
          new Thread(
              () -> {
                String session = "ws-load-" + me;
                URI base = bases[me];
                URI events = base.resolve("/work-sessions/" + session + "/events");
                try {
                  start.await();
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  return;
                }
                long[] mine = latencies[me];
                int n = 0;
                while (n < MAX_REQUESTS_PER_THREAD_AND_PHASE && System.nanoTime() < deadline) {
                  ChainCursor cursor = cursors[me];
                  ObjectNode event = EventChain.next(cursor, draft(session, me, counter[me]++));
                  HttpRequest.Builder request = mutation(events, AGENT);
                  request.header(
                      "Jarvis-Expected-WorkSession-Revision", Long.toString(cursor.revision()));
                  request.header("Jarvis-Previous-Event-Hash", cursor.lastEventHash());
                  long t0 = System.nanoTime();
                  HttpResponse<byte[]> answer = send(http, request, event.toString());
                  long micros = (System.nanoTime() - t0) / 1_000;
                  if (answer.statusCode() == 201) {
                    cursors[me] = cursor.advance(event.path("event_hash").asText());
                    if (n == mine.length) {
                      mine = Arrays.copyOf(mine, mine.length * 2);
                      latencies[me] = mine;
                    }
                    mine[n++] = micros;
                  } else {
                    errors[me]++;
                    if (errors[me] <= 3) {
                      System.err.println(
                          session
                              + ": "
                              + answer.statusCode()
                              + " "
                              + new String(answer.body(), java.nio.charset.StandardCharsets.UTF_8));
                    }
                    if (realHost) {
                      cursors[me] = readCursor(http, base, session);
                    }
                  }
                }
                counts[me] = n;
              },
              "load-" + t);
      workers.add(worker);
      worker.start();
    }
    long t0 = System.nanoTime();
    start.countDown();
    for (Thread worker : workers) {
      worker.join();
    }
    double elapsed = (System.nanoTime() - t0) / 1e9;
    long ok = 0;
    long failed = 0;
    for (int t = 0; t < threads; t++) {
      ok += counts[t];
      failed += errors[t];
    }
    long[] all = new long[(int) ok];
    int at = 0;
    for (int t = 0; t < threads; t++) {
      System.arraycopy(latencies[t], 0, all, at, counts[t]);
      at += counts[t];
    }
    Arrays.sort(all);
    return new Phase(ok, failed, elapsed, all);
  }

  // ---- requests ----

  static HttpRequest.Builder mutation(URI uri, String actor) {
    return HttpRequest.newBuilder(uri)
        .header("Authorization", "Bearer " + TOKEN)
        .header("Jarvis-Protocol-Version", "v0.1")
        .header("Jarvis-Actor-Id", actor)
        .header("Jarvis-Idempotency-Key", UUID.randomUUID().toString())
        .header("Jarvis-Request-Timestamp", RequestTimestamp.format(Instant.now()));
  }

  static HttpRequest.BodyPublisher publisher(String body) {
    return HttpRequest.BodyPublishers.ofString(body);
  }

  static HttpResponse<byte[]> send(HttpClient http, HttpRequest.Builder request, String body) {
    if (body != null) {
      request.header("Content-Type", "application/json").POST(publisher(body));
    } else {
      request.header("Content-Type", "application/json");
    }
    try {
      return http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  static void expect(int status, HttpResponse<byte[]> answer) {
    if (answer.statusCode() != status) {
      throw new IllegalStateException(
          answer.request().method()
              + " "
              + answer.request().uri()
              + ": "
              + answer.statusCode()
              + " "
              + new String(answer.body(), java.nio.charset.StandardCharsets.UTF_8));
    }
  }

  // ---- records (as in jarvis-server-stubs' test Payloads) ----

  static ObjectNode draft(String session, int thread, int n) {
    ObjectNode draft = json("{}");
    draft.put("id", "event-" + thread + "-" + n);
    draft.put("type", "note.added");
    draft.put("work_session_id", session);
    draft.put("actor_id", AGENT);
    draft.put("timestamp", RequestTimestamp.format(Instant.now()));
    ObjectNode payload = draft.putObject("payload");
    payload.put("object_type", "work_session");
    payload.put("object_id", session);
    payload.put("action", "added");
    payload.put("summary", "Agent noted progress on the load run.");
    return draft;
  }

  static ObjectNode json(String text) {
    try {
      return (ObjectNode) MAPPER.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static ObjectNode worker(String id, String type) {
    return json(
        """
        {"id": "%s", "type": "%s", "role": "collaborator",
         "authority_scope": {"grants": ["work"]},
         "accountability_scope": {"accountable_for": ["outcome"]}}
        """
            .formatted(id, type));
  }

  static ObjectNode actor(String id, String workerId, String type) {
    return json(
        """
        {"id": "%s", "worker_id": "%s", "type": "%s",
         "event_authority": {"can_append_events": true},
         "contribution_scope": {"contribution_roles": ["%s"]},
         "created_at": "2026-06-12T17:00:00Z"}
        """
            .formatted(id, workerId, type, type));
  }

  static ObjectNode policy() {
    return json(
        """
        {"id": "policy-bounded-001", "owner_worker_id": "worker-human-001",
         "created_by_actor_id": "actor-human-001", "autonomy_level": "execute_with_review",
         "allowed_actions": [{"action": "summarize"}],
         "denied_actions": [{"action": "delete_repository"}],
         "review_required_actions": [{"action": "fetch_external_source"}],
         "risk_classes": ["low", "medium"], "escalation_rules": [],
         "created_at": "2026-06-12T17:00:00Z", "tool_grants": ["tool:search"],
         "request_limits": {"max_pending_requests": 2}}
        """);
  }

  static ObjectNode workSession(String id) {
    return json(
        """
        {"id": "%s", "protocol_version": "v0.1", "created_by_actor_id": "actor-human-001",
         "objective": "Load run.", "human_worker_id": "worker-human-001",
         "agent_worker_id": "worker-agent-001", "policy_id": "policy-bounded-001",
         "status": "active", "revision": 0, "last_event_hash": "hash:protocol-genesis",
         "event_log_ref": "event-log:load", "created_at": "2026-06-12T18:00:00Z",
         "updated_at": "2026-06-12T18:00:00Z"}
        """
            .formatted(id));
  }
}
