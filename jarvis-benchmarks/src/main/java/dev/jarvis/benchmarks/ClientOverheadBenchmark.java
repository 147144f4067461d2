package dev.jarvis.benchmarks;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import dev.jarvis.client.JarvisCall;
import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.JarvisClientOptions;
import dev.jarvis.client.JarvisResponse;
import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.model.PolicyDecision;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The client's cost per mutation: {@code JarvisClient.execute(recordPolicyDecision)} against a
 * loopback WireMock, next to a bare {@code java.net.http.HttpClient} (HTTP/1.1) POST of the same
 * bytes and headers, in the same run. Target: client/bare median ratio at most 1.10. {@code
 * jarvisClientLinkTimed} runs the same call through a client with timers in its public policy hooks
 * and prints the time and CPU per call outside the links, in the built-in links and in the
 * transport after every iteration, to say where the client's extra cost is; {@code sideBySide} runs
 * client and bare POST at once, as a control under changing load. Run with {@code -prof gc} for
 * allocation per call; see docs/benchmarks.md.
 *
 * <p>The WireMock answering both is started in this JVM by default; {@code -p
 * target=http://127.0.0.1:PORT} (or {@code -Djarvis.bench.target=...}) points the benchmark at one
 * running elsewhere ({@code CannedWireMock} in its own JVM, pinned to another core), and the stubs
 * below are installed over its admin API and removed afterwards.
 */
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ClientOverheadBenchmark {

  static final String SESSION = "ws-protocol-001";
  static final String ACTOR = "actor-agent-001";
  static final String TOKEN = "Bearer bench-token";
  static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(30);
  static final String LAST_HASH =
      "sha256:4444444444444444444444444444444444444444444444444444444444444444";

  /** A spec-valid PolicyDecision (jarvis-client's test records). */
  static final String DECISION =
      """
      {"id": "pd-network-001", "work_session_id": "ws-protocol-001",
       "actor_id": "actor-agent-001", "policy_id": "policy-bounded-001",
       "requested_action": {"action": "fetch_external_source",
         "target_ref": "source:external-reference", "scope_ref": "scope:source-collection"},
       "normalized_action_hash":
         "sha256:2222222222222222222222222222222222222222222222222222222222222222",
       "risk_class": "medium", "result": "deny",
       "reason": "External source access requires HumanWorker review before continuation.",
       "request_id": "req-network-001", "created_at": "2026-06-12T18:05:00Z"}
      """;

  /** A spec-valid WorkSession at revision 1 (jarvis-client's test records). */
  static final String WORK_SESSION =
      """
      {"id": "ws-protocol-001", "protocol_version": "v0.1",
       "created_by_actor_id": "actor-agent-001",
       "objective": "Produce a reviewed evidence-backed answer under bounded policy.",
       "human_worker_id": "worker-human-001", "agent_worker_id": "worker-agent-001",
       "policy_id": "policy-bounded-001", "status": "active", "revision": 1,
       "last_event_hash":
         "sha256:1111111111111111111111111111111111111111111111111111111111111111",
       "event_log_ref": "event-log:ws-protocol-001",
       "created_at": "2026-06-12T18:00:00Z", "updated_at": "2026-06-12T18:00:00Z"}
      """;

  /** Where the benchmark's WireMock started inside this JVM: the default target. */
  static final String IN_JVM = "in-jvm";

  /**
   * The WireMock to call: {@value #IN_JVM} (started here, as before), or the base URI of one
   * running elsewhere. The system property {@code jarvis.bench.target} sets it too (JMH hands the
   * JVM's {@code -D} options to its forks), for commands that cannot pass {@code -p}.
   */
  @Param(IN_JVM)
  public String target;

  final ObjectMapper mapper = JarvisJson.mapper();

  /** The in-JVM WireMock; null for an external target. */
  WireMockServer wireMock;

  /** The external target's admin client and the stubs installed there, removed at tear-down. */
  WireMock admin;

  final List<StubMapping> installed = new ArrayList<>();

  /** The target's base URI, no trailing slash. */
  String base;

  JarvisClient client;
  HttpClient bare;
  URI decisionsUri;
  PolicyDecision decision;
  byte[] decisionBytes;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    String chosen =
        IN_JVM.equals(target) ? System.getProperty("jarvis.bench.target", IN_JVM) : target;
    if (IN_JVM.equals(chosen)) {
      wireMock =
          new WireMockServer(
              options().bindAddress("127.0.0.1").dynamicPort().disableRequestJournal());
      wireMock.start();
      base = "http://127.0.0.1:" + wireMock.port();
    } else {
      URI external = URI.create(chosen);
      admin = new WireMock(external.getScheme(), external.getHost(), external.getPort());
      base = chosen.replaceAll("/+$", "");
    }
    String canned = mapper.readTree(DECISION).toString();
    stub(
        post(urlPathMatching("/work-sessions/[^/]+/policy-decisions"))
            .willReturn(
                aResponse()
                    .withStatus(201)
                    .withHeader("Content-Type", "application/json")
                    .withHeader("Jarvis-Protocol-Version", "v0.1")
                    .withHeader("Jarvis-Host-Capabilities", "cursor-headers")
                    .withHeader("Jarvis-WorkSession-Revision", "2")
                    .withHeader("Jarvis-Last-Event-Hash", LAST_HASH)
                    .withBody(canned)));
    stub(
        get(urlPathEqualTo("/work-sessions/" + SESSION))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Content-Type", "application/json")
                    .withHeader("Jarvis-Protocol-Version", "v0.1")
                    .withHeader("Jarvis-Host-Capabilities", "cursor-headers")
                    .withBody(mapper.readTree(WORK_SESSION).toString())));
    client = JarvisClient.create(clientOptions());
    bare = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    decisionsUri = URI.create(base + "/work-sessions/" + SESSION + "/policy-decisions");
    decision = mapper.readValue(DECISION, PolicyDecision.class);
    decisionBytes = mapper.writeValueAsBytes(decision);
    // The first call reads the WorkSession; later ones take the cursor from the answer headers.
    client.execute(JarvisCall.recordPolicyDecision(SESSION, decision));
    if (client.cursor(SESSION).isEmpty()) {
      throw new IllegalStateException("the client lost its cursor: it would re-read every call");
    }
  }

  /**
   * Installs a stub on the target. On an external WireMock ({@code CannedWireMock} answers other
   * paths of its own) it goes first: priority 1 beats the default 5.
   */
  private void stub(MappingBuilder stub) {
    if (admin == null) {
      wireMock.stubFor(stub);
    } else {
      installed.add(admin.register(stub.atPriority(1)));
    }
  }

  /** Default options, as a caller would start; the same for both client benchmarks. */
  JarvisClientOptions clientOptions() {
    return JarvisClientOptions.builder().baseUri(base).actorId(ACTOR).hostAuth(TOKEN).build();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    client.close();
    if (admin == null) {
      wireMock.stop();
    } else {
      installed.forEach(admin::removeStubMapping);
    }
  }

  /** The SDK client: validation, headers, idempotency key, cursor, answer checks and binding. */
  @Benchmark
  public JarvisResponse<PolicyDecision> jarvisClient() {
    return client.execute(JarvisCall.recordPolicyDecision(SESSION, decision));
  }

  /** The same bytes and headers through a bare JDK client; only the status is checked. */
  @Benchmark
  public byte[] bareHttpClient() throws IOException, InterruptedException {
    return bare(HttpRequest.newBuilder(decisionsUri));
  }

  /**
   * The bare POST with the per-request timeout the client sets on every attempt (30 s by default):
   * isolates what a JDK request timeout costs.
   */
  @Benchmark
  public byte[] bareHttpClientWithTimeout() throws IOException, InterruptedException {
    return bare(HttpRequest.newBuilder(decisionsUri).timeout(ATTEMPT_TIMEOUT));
  }

  private byte[] bare(HttpRequest.Builder builder) throws IOException, InterruptedException {
    ChainCursor cursor = client.cursor(SESSION).orElseThrow();
    HttpRequest request =
        builder
            .header("Accept", "application/json")
            .header("Content-Type", "application/json")
            .header("Authorization", TOKEN)
            .header("User-Agent", "jarvis-java-sdk/1.0.0-SNAPSHOT")
            .header("Jarvis-Protocol-Version", "v0.1")
            .header("Jarvis-Actor-Id", ACTOR)
            .header("Jarvis-Idempotency-Key", UUID.randomUUID().toString())
            .header("Jarvis-Request-Timestamp", RequestTimestamp.format(Instant.now()))
            .header("Jarvis-Expected-WorkSession-Revision", Long.toString(cursor.revision()))
            .header("Jarvis-Previous-Event-Hash", cursor.lastEventHash())
            .POST(HttpRequest.BodyPublishers.ofByteArray(decisionBytes))
            .build();
    HttpResponse<byte[]> response = bare.send(request, HttpResponse.BodyHandlers.ofByteArray());
    if (response.statusCode() != 201) {
      throw new IllegalStateException("status " + response.statusCode());
    }
    return response.body();
  }

  /**
   * The client and the bare POST at the same time, one thread each, so that both see the same load
   * from whatever else runs on the machine: a control for the sequential pair above, whose ratio
   * moves when the load changes between benchmarks.
   */
  @Benchmark
  @Group("sideBySide")
  @GroupThreads(1)
  public JarvisResponse<PolicyDecision> sideBySideClient() {
    return jarvisClient();
  }

  /** The bare half of {@link #sideBySideClient}. */
  @Benchmark
  @Group("sideBySide")
  @GroupThreads(1)
  public byte[] sideBySideBare() throws IOException, InterruptedException {
    return bareHttpClient();
  }

  /** The same call through a client whose stages are timed (see {@link LinkTimes}). */
  @Benchmark
  public JarvisResponse<PolicyDecision> jarvisClientLinkTimed(LinkTimes timed) {
    return timed.send(JarvisCall.recordPolicyDecision(SESSION, decision));
  }

  /**
   * A client with the default links and two timers of its own, put where the public API puts a
   * caller's policies: a per-call one above the built-in per-call links (a caller's per-call
   * policies come first: it times every built-in link and the transport) and a per-attempt one
   * between {@code host-auth} and {@code logging} (it times the logging link and the transport).
   * With the call's own wall time that splits each call into three stages: outside the links
   * (building the request from the call, its body tree included, and the {@code JarvisResponse}),
   * the built-in links ({@code protocol-headers} to {@code answer-checks}, {@code retry} to {@code
   * host-auth}), and logging with the transport. The split is made through the public policy hooks
   * only, so it keeps working whatever the client's internal chain looks like. (Before run 5 the
   * stages were printed as "per-call links", "per-attempt links" and "transport": the same three
   * spans, misnamed.)
   *
   * <p>Each timer reads the calling thread's CPU time too: in a blocking call every link runs on
   * that thread, so the first two stages' CPU is the client's own work per call (the transport's is
   * the JDK client's, which the bare POST pays as well). One CPU-time read costs about 0.3–0.8 µs
   * here; six per call are counted in the stages around them.
   */
  @State(Scope.Benchmark)
  public static class LinkTimes {
    static final List<String> STAGES =
        List.of("outside the links", "built-in links", "logging and transport");

    static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    final LongAdder callNanos = new LongAdder();
    final LongAdder belowPerCallNanos = new LongAdder();
    final LongAdder transportNanos = new LongAdder();
    final LongAdder callCpu = new LongAdder();
    final LongAdder belowPerCallCpu = new LongAdder();
    final LongAdder transportCpu = new LongAdder();
    JarvisClient client;
    long calls;

    @Setup(Level.Trial)
    public void setUp(ClientOverheadBenchmark benchmark) {
      client =
          JarvisClient.create(
              JarvisClientOptions.builder()
                  .baseUri(benchmark.base)
                  .actorId(ACTOR)
                  .hostAuth(TOKEN)
                  .addPerCallPolicy(timer("below-per-call", belowPerCallNanos, belowPerCallCpu))
                  .addPerAttemptPolicy(timer("transport-round-trip", transportNanos, transportCpu))
                  .build());
      // The first call reads the WorkSession; later ones take the cursor from the answer.
      client.execute(JarvisCall.recordPolicyDecision(SESSION, benchmark.decision));
    }

    @Setup(Level.Iteration)
    public void reset() {
      for (LongAdder adder :
          List.of(
              callNanos,
              belowPerCallNanos,
              transportNanos,
              callCpu,
              belowPerCallCpu,
              transportCpu)) {
        adder.reset();
      }
      calls = 0;
    }

    @TearDown(Level.Iteration)
    public void report() {
      long call = callNanos.sum();
      long belowPerCall = belowPerCallNanos.sum();
      long transport = transportNanos.sum();
      long[] own = {call - belowPerCall, belowPerCall - transport, transport};
      long[] cpu = {
        callCpu.sum() - belowPerCallCpu.sum(),
        belowPerCallCpu.sum() - transportCpu.sum(),
        transportCpu.sum()
      };
      StringBuilder line =
          new StringBuilder("\nown time per call, µs wall / CPU, over " + calls + " calls:");
      for (int i = 0; i < STAGES.size(); i++) {
        line.append(
            String.format(
                Locale.ROOT,
                " %s %.1f / %.1f;",
                STAGES.get(i),
                own[i] / 1e3 / calls,
                cpu[i] / 1e3 / calls));
      }
      System.out.println(line);
    }

    @TearDown(Level.Trial)
    public void close() {
      client.close();
    }

    JarvisResponse<PolicyDecision> send(JarvisCall<PolicyDecision> call) {
      calls++;
      long startCpu = THREADS.getCurrentThreadCpuTime();
      long start = System.nanoTime();
      try {
        return client.execute(call);
      } finally {
        callNanos.add(System.nanoTime() - start);
        callCpu.add(THREADS.getCurrentThreadCpuTime() - startCpu);
      }
    }

    /**
     * A policy that adds the wall time from its call to its answer's completion to {@code total},
     * and the calling thread's CPU time over the same span to {@code cpu}.
     */
    private static JarvisPolicy timer(String name, LongAdder total, LongAdder cpu) {
      return JarvisPolicy.named(
          name,
          (request, next) -> {
            long startCpu = THREADS.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            return next.send(request)
                .whenComplete(
                    (answer, failure) -> {
                      total.add(System.nanoTime() - start);
                      cpu.add(THREADS.getCurrentThreadCpuTime() - startCpu);
                    });
          });
    }
  }
}
