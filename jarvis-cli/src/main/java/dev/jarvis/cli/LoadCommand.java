package dev.jarvis.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.ProtocolOperations;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.core.sample.SampleRecords;
import dev.jarvis.core.validation.PayloadValidator;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code load}: a load generator for any Jarvis host. Each connection works on its own WorkSession
 * and its own HTTP client (so its own keep-alive connection), builds, hashes and chains every event
 * as a correct agent would, and checks every answer against the spec. Latencies go to an HDR
 * histogram; refusals are counted by {@code error_id}, transport failures by kind.
 */
@Command(
    name = "load",
    mixinStandardHelpOptions = true,
    description = {
      "Drives a Jarvis host with correct, chained requests and reports throughput, latency"
          + " percentiles (HDR histogram), refusals by error_id and transport errors.",
      "Exit 0 done, 1 an answer was off-spec or a chain broke, 2 usage error or host unreachable."
    })
final class LoadCommand implements Callable<Integer> {

  /** What each request of the run does. */
  enum Operation {
    appendJarvisEvent,
    recordPolicyDecision,
    getWorkSession
  }

  private final CliIo io;
  private final Clock clock = Clock.systemUTC();
  private final PayloadValidator validator = PayloadValidator.forSpec();

  @Option(names = "--base-url", required = true, paramLabel = "URL", description = "the host")
  URI baseUrl;

  @Option(names = "--token", required = true, paramLabel = "T", description = "its bearer token")
  String token;

  @Option(
      names = "--connections",
      paramLabel = "N",
      description = "connections, each on its own WorkSession (default: ${DEFAULT-VALUE})")
  int connections = 16;

  @Option(
      names = "--duration",
      paramLabel = "S",
      description = "measured seconds (default: ${DEFAULT-VALUE})")
  int durationSeconds = 30;

  @Option(
      names = "--warmup",
      paramLabel = "S",
      description = "seconds of load before measuring (default: ${DEFAULT-VALUE})")
  int warmupSeconds = 10;

  @Option(
      names = "--operation",
      paramLabel = "OP",
      description =
          "appendJarvisEvent, recordPolicyDecision or getWorkSession (default: ${DEFAULT-VALUE})")
  Operation operation = Operation.appendJarvisEvent;

  @Option(
      names = "--admin-actor",
      paramLabel = "ID",
      description = "registers the load's Workers and Actors (default: ${DEFAULT-VALUE})")
  String admin = "host-admin";

  @Option(
      names = "--actor",
      paramLabel = "ID",
      description =
          "a registered human Actor to act as, with --worker and --agent-worker; without it the"
              + " load registers its own")
  Optional<String> actor;

  @Option(names = "--worker", paramLabel = "ID", description = "the human Actor's Worker")
  Optional<String> worker;

  @Option(names = "--agent-worker", paramLabel = "ID", description = "an agent Worker")
  Optional<String> agentWorker;

  @Option(names = "--json", paramLabel = "FILE", description = "also write the results as JSON")
  Optional<Path> json;

  LoadCommand(CliIo io) {
    this.io = io;
  }

  /** Counts of one run, shared by the connections. */
  private static final class Tally {
    final Recorder latencies = new Recorder(3);
    final AtomicLong accepted = new AtomicLong();
    final AtomicLong offSpec = new AtomicLong();
    final Map<String, AtomicLong> refusals = new ConcurrentHashMap<>();
    final Map<String, AtomicLong> transport = new ConcurrentHashMap<>();
    final List<String> firstProblems = java.util.Collections.synchronizedList(new ArrayList<>());
    volatile boolean measuring;

    void problem(String text) {
      offSpec.incrementAndGet();
      if (firstProblems.size() < 5) {
        firstProblems.add(text);
      }
    }
  }

  @Override
  public Integer call() throws Exception {
    if (connections < 1 || durationSeconds < 1 || warmupSeconds < 0) {
      throw new CliException("--connections and --duration must be at least 1, --warmup 0");
    }
    String run = UUID.randomUUID().toString().substring(0, 8);
    Cast cast = cast(run);
    List<Connection> all = new ArrayList<>();
    for (int c = 0; c < connections; c++) {
      all.add(new Connection(cast, "ws-load-" + run + "-" + c));
    }
    Tally tally = new Tally();
    AtomicBoolean stop = new AtomicBoolean();
    List<Thread> threads = new ArrayList<>();
    for (Connection connection : all) {
      Thread thread = new Thread(() -> connection.drive(tally, stop), "jarvis-load");
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
    io.out()
        .printf(
            Locale.ROOT,
            "load: %s on %s, %d connections, %d s warm-up, %d s measured%n",
            operation,
            baseUrl,
            connections,
            warmupSeconds,
            durationSeconds);
    Histogram total = new Histogram(3);
    long measuredNanos = phases(tally, total);
    stop.set(true);
    for (Thread thread : threads) {
      thread.join(10_000);
    }
    boolean chainsAgree = true;
    for (Connection connection : all) {
      chainsAgree &= connection.agreesWithHost(tally);
    }
    Results results = new Results(operation, connections, measuredNanos, total, tally, chainsAgree);
    results.print(io.out());
    if (json.isPresent()) {
      Files.writeString(json.get(), results.json().toPrettyString());
    }
    return tally.offSpec.get() == 0 && chainsAgree ? 0 : 1;
  }

  /** Warm-up, then the measured phase with a line of progress every 5 s; the measured nanos. */
  private long phases(Tally tally, Histogram total) throws InterruptedException {
    Thread.sleep(warmupSeconds * 1000L); // the load's own pace, not a test waiting
    tally.latencies.getIntervalHistogram(); // drops the warm-up
    tally.accepted.set(0);
    tally.refusals.clear();
    tally.transport.clear();
    tally.measuring = true;
    long start = System.nanoTime();
    long end = start + durationSeconds * 1_000_000_000L;
    long accepted = 0;
    while (System.nanoTime() < end) {
      long slice = Math.min(5_000_000_000L, end - System.nanoTime());
      Thread.sleep(Math.max(1, slice / 1_000_000));
      Histogram interval = tally.latencies.getIntervalHistogram();
      total.add(interval);
      long now = tally.accepted.get();
      io.out()
          .printf(
              Locale.ROOT,
              "  %5.1f s  %,8.0f /s  p99 %,7.0f µs  refused %d  transport errors %d%n",
              (System.nanoTime() - start) / 1e9,
              (now - accepted) / (slice / 1e9),
              (double) interval.getValueAtPercentile(99),
              tally.refusals.values().stream().mapToLong(AtomicLong::get).sum(),
              tally.transport.values().stream().mapToLong(AtomicLong::get).sum());
      accepted = now;
    }
    tally.measuring = false;
    return System.nanoTime() - start;
  }

  /** The Actors the load acts as: given, or registered now by the admin Actor. */
  private record Cast(String human, String humanWorker, String agentWorker) {}

  private Cast cast(String run) throws IOException, InterruptedException, CliException {
    if (actor.isPresent()) {
      if (worker.isEmpty() || agentWorker.isEmpty()) {
        throw new CliException("--actor needs --worker and --agent-worker");
      }
      return new Cast(actor.get(), worker.get(), agentWorker.get());
    }
    String now = RequestTimestamp.format(clock.instant());
    Cast cast = new Cast("actor-load-" + run, "worker-load-" + run, "worker-load-agent-" + run);
    HttpClient http = HttpClient.newHttpClient();
    register(
        http, "/workers/" + cast.humanWorker(), SampleRecords.worker(cast.humanWorker(), "human"));
    register(
        http, "/workers/" + cast.agentWorker(), SampleRecords.worker(cast.agentWorker(), "agent"));
    register(
        http,
        "/actors/" + cast.human(),
        SampleRecords.actor(cast.human(), cast.humanWorker(), "human", now));
    return cast;
  }

  private void register(HttpClient http, String path, JsonNode body)
      throws IOException, InterruptedException, CliException {
    HttpRequest request =
        headers(HttpRequest.newBuilder(resolve(path)), admin, true, Optional.empty())
            .PUT(HttpRequest.BodyPublishers.ofString(body.toString()))
            .build();
    HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (answer.statusCode() / 100 != 2) {
      throw new CliException(
          "could not register "
              + path
              + " as "
              + admin
              + ": "
              + answer.statusCode()
              + " "
              + answer.body());
    }
  }

  private URI resolve(String path) {
    String base = baseUrl.toString().replaceAll("/+$", "");
    return URI.create(base + path);
  }

  private HttpRequest.Builder headers(
      HttpRequest.Builder request, String actorId, boolean mutation, Optional<ChainCursor> at) {
    request
        .header("Authorization", "Bearer " + token)
        .header(JarvisHeaders.PROTOCOL_VERSION, JarvisSpec.PROTOCOL_VERSION)
        .header(JarvisHeaders.ACTOR_ID, actorId)
        .header("Content-Type", "application/json");
    if (mutation) {
      request
          .header(JarvisHeaders.IDEMPOTENCY_KEY, UUID.randomUUID().toString())
          .header(JarvisHeaders.REQUEST_TIMESTAMP, RequestTimestamp.format(clock.instant()));
    }
    at.ifPresent(
        cursor ->
            request
                .header(
                    JarvisHeaders.EXPECTED_WORK_SESSION_REVISION, Long.toString(cursor.revision()))
                .header(JarvisHeaders.PREVIOUS_EVENT_HASH, cursor.lastEventHash()));
    return request;
  }

  /** One connection: its own client, WorkSession and cursor. */
  private final class Connection {
    private final HttpClient http =
        HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private final Cast cast;
    private final String session;
    private ChainCursor cursor = ChainCursor.GENESIS;
    private long sent;

    Connection(Cast cast, String session) {
      this.cast = cast;
      this.session = session;
    }

    void drive(Tally tally, AtomicBoolean stop) {
      try {
        create(tally);
        while (!stop.get()) {
          once(tally);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }

    private void create(Tally tally) throws InterruptedException {
      String now = RequestTimestamp.format(clock.instant());
      ObjectNode body =
          SampleRecords.workSession(
              session, cast.human(), cast.humanWorker(), cast.agentWorker(), now);
      HttpRequest request =
          headers(
                  HttpRequest.newBuilder(resolve("/work-sessions")),
                  cast.human(),
                  true,
                  Optional.of(ChainCursor.GENESIS))
              .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
              .build();
      exchange(request, ProtocolOperations.byId("createWorkSession"), tally, false)
          .ifPresent(answer -> cursor = cursorOf(answer));
    }

    private void once(Tally tally) throws InterruptedException {
      long n = ++sent;
      String now = RequestTimestamp.format(clock.instant());
      HttpRequest request;
      ObjectNode event = null;
      switch (operation) {
        case appendJarvisEvent -> {
          event =
              EventChain.next(
                  cursor,
                  SampleRecords.eventDraft(
                      "evt-" + session + "-" + n, session, cast.human(), "note.added", now));
          request =
              headers(
                      HttpRequest.newBuilder(resolve("/work-sessions/" + session + "/events")),
                      cast.human(),
                      true,
                      Optional.of(cursor))
                  .POST(HttpRequest.BodyPublishers.ofString(event.toString()))
                  .build();
        }
        case recordPolicyDecision -> {
          ObjectNode decision =
              SampleRecords.policyDecision("pd-" + session + "-" + n, session, cast.human(), now);
          request =
              headers(
                      HttpRequest.newBuilder(
                          resolve("/work-sessions/" + session + "/policy-decisions")),
                      cast.human(),
                      true,
                      Optional.of(cursor))
                  .POST(HttpRequest.BodyPublishers.ofString(decision.toString()))
                  .build();
        }
        default ->
            request =
                headers(
                        HttpRequest.newBuilder(resolve("/work-sessions/" + session)),
                        cast.human(),
                        false,
                        Optional.empty())
                    .GET()
                    .build();
      }
      Optional<HttpResponse<byte[]>> answer =
          exchange(request, ProtocolOperations.byId(operation.name()), tally, true);
      if (answer.isEmpty()) {
        cursor = reread(tally); // refused or lost: the host's cursor decides what comes next
        return;
      }
      if (event != null) {
        String stored = parse(answer.get()).path("event_hash").asText();
        if (!stored.equals(event.path("event_hash").asText())) {
          tally.problem(session + ": the host stored another event than the one sent");
        }
        cursor = cursor.advance(stored);
      } else if (operation == Operation.recordPolicyDecision) {
        cursor = cursorOf(answer.get());
      }
    }

    /** The answer when it is a success; refusals, off-spec answers and failures are counted. */
    private Optional<HttpResponse<byte[]>> exchange(
        HttpRequest request, ProtocolOperation op, Tally tally, boolean timed)
        throws InterruptedException {
      long start = System.nanoTime();
      HttpResponse<byte[]> answer;
      try {
        answer = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
      } catch (IOException e) {
        tally
            .transport
            .computeIfAbsent(e.getClass().getSimpleName(), k -> new AtomicLong())
            .incrementAndGet();
        return Optional.empty();
      }
      if (timed) {
        tally.latencies.recordValue(Math.max(1, (System.nanoTime() - start) / 1000));
      }
      JsonNode body = parse(answer);
      if (answer.statusCode() == op.successStatus()) {
        List<?> problems = validator.validate(op.responseSchema(), body);
        if (!problems.isEmpty()) {
          tally.problem(op.operationId() + " answered off-spec: " + problems.get(0));
        }
        if (timed) {
          tally.accepted.incrementAndGet();
        }
        return Optional.of(answer);
      }
      if (!validator.validate("ProtocolError", body).isEmpty()) {
        tally.problem(
            op.operationId() + " answered " + answer.statusCode() + " without a ProtocolError");
      }
      tally
          .refusals
          .computeIfAbsent(
              body.path("error_id").asText("status " + answer.statusCode()), k -> new AtomicLong())
          .incrementAndGet();
      return Optional.empty();
    }

    private ChainCursor reread(Tally tally) throws InterruptedException {
      HttpRequest read =
          headers(
                  HttpRequest.newBuilder(resolve("/work-sessions/" + session)),
                  cast.human(),
                  false,
                  Optional.empty())
              .GET()
              .build();
      return exchange(read, ProtocolOperations.byId("getWorkSession"), tally, false)
          .map(LoadCommand::cursorOf)
          .orElse(cursor);
    }

    boolean agreesWithHost(Tally tally) throws InterruptedException {
      ChainCursor host = reread(tally);
      if (!host.equals(cursor)) {
        tally.problem(session + ": the load's cursor " + cursor + " is not the host's " + host);
        return false;
      }
      return true;
    }
  }

  private static ChainCursor cursorOf(HttpResponse<byte[]> answer) {
    Optional<String> revision = answer.headers().firstValue(JarvisHeaders.WORK_SESSION_REVISION);
    Optional<String> hash = answer.headers().firstValue(JarvisHeaders.LAST_EVENT_HASH);
    if (revision.isPresent() && hash.isPresent()) {
      return new ChainCursor(Long.parseLong(revision.get()), hash.get());
    }
    JsonNode session = parse(answer);
    return new ChainCursor(
        session.path("revision").asLong(), session.path("last_event_hash").asText());
  }

  private static JsonNode parse(HttpResponse<byte[]> answer) {
    try {
      return answer.body().length == 0
          ? JarvisJson.mapper().missingNode()
          : JarvisJson.mapper().readTree(answer.body());
    } catch (IOException e) {
      return JarvisJson.mapper().missingNode();
    }
  }

  /** What a run measured. */
  private record Results(
      Operation operation,
      int connections,
      long measuredNanos,
      Histogram latencies,
      Tally tally,
      boolean chainsAgree) {

    double perSecond() {
      return tally.accepted.get() / (measuredNanos / 1e9);
    }

    void print(java.io.PrintStream out) {
      out.printf(
          Locale.ROOT,
          "%s: %,.0f accepted/s over %.1f s with %d connections (%,d accepted)%n",
          operation,
          perSecond(),
          measuredNanos / 1e9,
          connections,
          tally.accepted.get());
      out.printf(
          Locale.ROOT,
          "latency µs: p50 %,d  p90 %,d  p99 %,d  p99.9 %,d  max %,d%n",
          latencies.getValueAtPercentile(50),
          latencies.getValueAtPercentile(90),
          latencies.getValueAtPercentile(99),
          latencies.getValueAtPercentile(99.9),
          latencies.getMaxValue());
      out.println("refusals by error_id: " + counts(tally.refusals));
      out.println("transport errors: " + counts(tally.transport));
      out.println(
          "off-spec answers: "
              + tally.offSpec.get()
              + (tally.firstProblems.isEmpty() ? "" : " " + tally.firstProblems));
      out.println("every cursor agrees with the host: " + (chainsAgree ? "yes" : "NO"));
    }

    ObjectNode json() {
      ObjectNode root = JarvisJson.mapper().createObjectNode();
      root.put("operation", operation.name());
      root.put("connections", connections);
      root.put("measured_seconds", measuredNanos / 1e9);
      root.put("accepted", tally.accepted.get());
      root.put("accepted_per_second", perSecond());
      ObjectNode micros = root.putObject("latency_micros");
      for (double p : new double[] {50, 90, 99, 99.9}) {
        micros.put(
            "p" + (p == Math.rint(p) ? Long.toString((long) p) : Double.toString(p)),
            latencies.getValueAtPercentile(p));
      }
      micros.put("max", latencies.getMaxValue());
      ObjectNode refusals = root.putObject("refusals");
      counts(tally.refusals).forEach(refusals::put);
      ObjectNode transport = root.putObject("transport_errors");
      counts(tally.transport).forEach(transport::put);
      root.put("off_spec_answers", tally.offSpec.get());
      root.put("cursors_agree", chainsAgree);
      return root;
    }

    private static Map<String, Long> counts(Map<String, AtomicLong> counters) {
      Map<String, Long> out = new TreeMap<>();
      counters.forEach((k, v) -> out.put(k, v.get()));
      return out;
    }
  }
}
