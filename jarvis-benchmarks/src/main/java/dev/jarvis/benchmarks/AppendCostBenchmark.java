package dev.jarvis.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.ProtocolOperations;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.host.ChainWrite;
import dev.jarvis.host.HostAuth;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.HostStores;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.PrincipalLimits;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.StoredResponse;
import dev.jarvis.host.StoredSession;
import dev.jarvis.host.WorkSessionGovernance;
import dev.jarvis.samples.SampleRecords;
import dev.jarvis.store.jdbc.JdbcHostStores;
import dev.jarvis.store.jdbc.JdbcStoreSettings;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * Whether an append costs the same however long the chain and however many WorkSessions: the host
 * kit's work for one {@code appendJarvisEvent} ({@code ProtocolHost.answer}: guard, rules, commit),
 * no HTTP, with each WorkSession already holding {@code eventsPerSession} events (seeded through
 * the store SPI, {@code HostStores.commit}) and {@code sessions} WorkSessions in the store. Each
 * benchmark thread appends to its own WorkSessions in turn. The time includes building and hashing
 * the event on the caller's side (about 5 µs, the same at every point).
 *
 * <p>{@code store=postgres} runs on {@code JdbcHostStores} in a fresh schema of the database named
 * by {@code -Djarvis.bench.postgres=jdbc:postgresql://...} (dropped afterwards). Commands and the
 * sizes that fit in memory: docs/benchmarks.md ("Flat cost as work grows").
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx12g"})
public class AppendCostBenchmark {

  static final String TOKEN = "bench-token";
  static final String NOW = "2026-06-12T18:00:00Z";
  static final String HUMAN = "actor-human-001";
  static final String HUMAN_WORKER = "worker-human-001";
  static final String AGENT_WORKER = "worker-agent-001";

  @Param({"16", "1000"})
  public int sessions;

  @Param({"1000", "100000"})
  public int eventsPerSession;

  @Param({"memory"})
  public String store;

  ProtocolHost host;
  ChainCursor[] cursors;
  final AtomicInteger threadIndex = new AtomicInteger();
  final AtomicLong keys = new AtomicLong();
  private Optional<String> schema = Optional.empty();

  static final ProtocolOperation APPEND = ProtocolOperations.byId("appendJarvisEvent");

  @Setup(Level.Trial)
  public void seed() throws Exception {
    HostStores stores = openStores();
    host =
        new ProtocolHost(
            HostConfig.builder(HostAuth.bearer(TOKEN))
                .clock(Clock.fixed(Instant.parse(NOW), ZoneOffset.UTC))
                .stores(stores)
                // One Actor creates every WorkSession here; the per-Actor limit (100 by default)
                // would refuse the 1,000-WorkSession point.
                .openWorkSessionsPerActor(
                    Math.max(sessions, PrincipalLimits.DEFAULT_OPEN_WORK_SESSIONS_PER_ACTOR))
                // The sample Policy's owner is another human Worker than this one's (who governs a
                // WorkSession).
                .governance(
                    WorkSessionGovernance.NONE.assignPolicyToEveryHuman(SampleRecords.POLICY_ID))
                .build());
    host.seedPolicy(SampleRecords.policy());
    expect(200, put("/workers/" + HUMAN_WORKER, SampleRecords.worker(HUMAN_WORKER, "human")));
    expect(200, put("/workers/" + AGENT_WORKER, SampleRecords.worker(AGENT_WORKER, "agent")));
    expect(200, put("/actors/" + HUMAN, SampleRecords.actor(HUMAN, HUMAN_WORKER, "human", NOW)));
    cursors = new ChainCursor[sessions];
    int parallel = "postgres".equals(store) ? 16 : Runtime.getRuntime().availableProcessors();
    ExecutorService seeders = Executors.newFixedThreadPool(parallel);
    try {
      List<Future<ChainCursor>> seeded = new ArrayList<>();
      for (int s = 0; s < sessions; s++) {
        int index = s;
        seeded.add(seeders.submit(() -> seedSession(index)));
      }
      for (int s = 0; s < sessions; s++) {
        cursors[s] = seeded.get(s).get();
      }
    } finally {
      seeders.shutdown();
    }
  }

  /** Creates WorkSession {@code s} through the host, then commits its events through the SPI. */
  private ChainCursor seedSession(int s) {
    String ws = session(s);
    Map<String, String> headers = headers(true);
    headers.put("Jarvis-Expected-WorkSession-Revision", "0");
    headers.put("Jarvis-Previous-Event-Hash", ChainCursor.GENESIS.lastEventHash());
    StoredResponse created =
        host.answer(
            "POST",
            "/work-sessions",
            "",
            lookup(headers),
            SampleRecords.workSession(ws, HUMAN, HUMAN_WORKER, AGENT_WORKER, NOW)
                .toString()
                .getBytes(StandardCharsets.UTF_8));
    expect(201, created);
    StoredSession current = host.config().stores().sessions().find(ws).orElseThrow();
    ChainCursor cursor = current.cursor();
    ObjectNode snapshot = current.snapshot().deepCopy();
    for (long n = cursor.revision(); n < eventsPerSession; n++) {
      JsonNode event = EventChain.next(cursor, draft(ws, "seed-" + n));
      ChainCursor next = cursor.advance(event.path("event_hash").asText());
      snapshot = snapshot.deepCopy();
      snapshot.put("revision", next.revision());
      snapshot.put("last_event_hash", next.lastEventHash());
      host.config()
          .stores()
          .commit(
              Mutation.of(
                  new ChainWrite.Append(ws, cursor, event, new StoredSession(snapshot, false)),
                  List.of()));
      cursor = next;
    }
    return cursor;
  }

  /** The WorkSessions of one benchmark thread: every T-th, starting at its index. */
  @State(Scope.Thread)
  public static class Lane {
    int[] mine;
    int turn;
    int thread;

    @Setup(Level.Trial)
    public void pick(AppendCostBenchmark bench, BenchmarkParams params) {
      thread = bench.threadIndex.getAndIncrement();
      int threads = params.getThreads();
      List<Integer> picked = new ArrayList<>();
      for (int s = thread % threads; s < bench.sessions; s += threads) {
        picked.add(s);
      }
      if (picked.isEmpty()) {
        throw new IllegalStateException("more threads than WorkSessions");
      }
      mine = picked.stream().mapToInt(Integer::intValue).toArray();
    }
  }

  @Benchmark
  public int append(Lane lane) {
    int s = lane.mine[lane.turn++ % lane.mine.length];
    ChainCursor cursor = cursors[s];
    String ws = session(s);
    JsonNode event =
        EventChain.next(cursor, draft(ws, "evt-" + lane.thread + "-" + keys.incrementAndGet()));
    Map<String, String> headers = headers(true);
    headers.put("Jarvis-Expected-WorkSession-Revision", Long.toString(cursor.revision()));
    headers.put("Jarvis-Previous-Event-Hash", cursor.lastEventHash());
    StoredResponse answer =
        host.answer(
            "POST",
            "/work-sessions/" + ws + "/events",
            "",
            lookup(headers),
            event.toString().getBytes(StandardCharsets.UTF_8));
    if (answer.status() != 201) {
      throw new IllegalStateException(
          "append refused: " + new String(answer.body(), StandardCharsets.UTF_8));
    }
    cursors[s] = cursor.advance(event.path("event_hash").asText());
    return answer.status();
  }

  @TearDown(Level.Trial)
  public void close() throws Exception {
    host.config().stores().close();
    if (schema.isPresent()) {
      try (Connection c = DriverManager.getConnection(postgresUrl());
          Statement st = c.createStatement()) {
        st.execute("DROP SCHEMA IF EXISTS " + schema.get() + " CASCADE");
      }
    }
  }

  private HostStores openStores() {
    if (store.equals("memory")) {
      return HostStores.inMemory();
    }
    if (!store.equals("postgres")) {
      throw new IllegalArgumentException("store is memory or postgres, got " + store);
    }
    String name = "jarvis_cost_" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    schema = Optional.of(name);
    return JdbcHostStores.open(
        JdbcStoreSettings.of(postgresUrl()).withSchema(name).withPoolSize(16));
  }

  private static String postgresUrl() {
    String url = System.getProperty("jarvis.bench.postgres");
    if (url == null) {
      throw new IllegalStateException("store=postgres needs -Djarvis.bench.postgres=JDBC_URL");
    }
    return url;
  }

  private StoredResponse put(String path, JsonNode body) {
    Map<String, String> headers = headers(true);
    headers.put("Jarvis-Actor-Id", "host-admin");
    return host.answer(
        "PUT", path, "", lookup(headers), body.toString().getBytes(StandardCharsets.UTF_8));
  }

  private static java.util.function.Function<String, Optional<String>> lookup(
      Map<String, String> headers) {
    return name -> Optional.ofNullable(headers.get(name));
  }

  private Map<String, String> headers(boolean mutation) {
    Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.put("Authorization", "Bearer " + TOKEN);
    headers.put("Jarvis-Protocol-Version", "v0.1");
    headers.put("Jarvis-Actor-Id", HUMAN);
    if (mutation) {
      headers.put("Jarvis-Idempotency-Key", "key-" + keys.incrementAndGet());
      headers.put("Jarvis-Request-Timestamp", NOW);
    }
    return headers;
  }

  private static ObjectNode draft(String ws, String id) {
    return SampleRecords.eventDraft(id + "-" + ws, ws, HUMAN, "note.added", NOW);
  }

  private static String session(int s) {
    return "ws-cost-" + s;
  }

  private static void expect(int status, StoredResponse answer) {
    if (answer.status() != status) {
      throw new IllegalStateException(
          "expected "
              + status
              + ", got "
              + answer.status()
              + ": "
              + new String(answer.body(), StandardCharsets.UTF_8));
    }
  }
}
