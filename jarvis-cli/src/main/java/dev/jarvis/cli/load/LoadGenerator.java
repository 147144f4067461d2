package dev.jarvis.cli.load;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.client.raw.RawExchange;
import dev.jarvis.client.raw.RawRequest;
import dev.jarvis.client.raw.RawTransport;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.ProtocolOperations;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.JarvisEventPayload;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.RiskClass;
import dev.jarvis.model.WorkerType;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * The load generator: each connection works on its own WorkSession, builds every record with {@link
 * ProtocolRecords}, hashes and chains every event as a correct agent would, sends it over the
 * {@link RawTransport}, and checks the answer (against the spec, unless the plan says not to; the
 * chain and the cursor always). Latencies go to an HDR histogram; refusals are counted by {@code
 * error_id}, transport failures by kind.
 */
public final class LoadGenerator {

  private static final PayloadValidator VALIDATOR = PayloadValidator.forSpec();
  private static final long SLICE_NANOS = 5_000_000_000L;

  private final LoadPlan plan;
  private final String run = UUID.randomUUID().toString().substring(0, 8);
  private final AtomicLong serial = new AtomicLong();
  private final Supplier<String> ids = () -> run + "-" + serial.incrementAndGet();

  private LoadGenerator(LoadPlan plan) {
    this.plan = plan;
  }

  /**
   * Runs {@code plan}: registers the cast if none is given, announces the run (to the plan's
   * progress), warms up, measures, then checks every connection's cursor against the host's.
   *
   * @throws LoadSetupException if the host refuses to register the cast
   * @throws IOException if the host cannot be reached to register the cast
   */
  public static LoadResults run(LoadPlan plan)
      throws IOException, InterruptedException, LoadSetupException {
    return new LoadGenerator(plan).run();
  }

  private LoadResults run() throws IOException, InterruptedException, LoadSetupException {
    RawTransport shared = RawTransport.create();
    LoadCast cast = plan.cast().isPresent() ? plan.cast().get() : register(shared);
    List<Connection> all = new ArrayList<>();
    for (int c = 0; c < plan.connections(); c++) {
      all.add(
          new Connection(
              cast,
              plan.hosts().get(c % plan.hosts().size()),
              plan.transportPerConnection() ? RawTransport.create() : shared));
    }
    plan.progress()
        .ifPresent(
            out ->
                out.printf(
                    java.util.Locale.ROOT,
                    "load: %s on %s, %d connections, %d s warm-up, %d s measured%n",
                    plan.operation(),
                    plan.hosts().size() == 1 ? plan.hosts().get(0) : plan.hosts(),
                    plan.connections(),
                    plan.warmup().toSeconds(),
                    plan.duration().toSeconds()));
    Tally tally = new Tally();
    AtomicBoolean stop = new AtomicBoolean();
    List<Thread> threads = new ArrayList<>();
    for (Connection connection : all) {
      Thread thread = new Thread(() -> connection.drive(tally, stop), "jarvis-load");
      thread.setDaemon(true);
      threads.add(thread);
      thread.start();
    }
    Histogram total = new Histogram(3);
    long measuredNanos = phases(tally, total);
    stop.set(true);
    for (Thread thread : threads) {
      thread.join(10_000);
    }
    boolean cursorsAgree = true;
    for (Connection connection : all) {
      cursorsAgree &= connection.agreesWithHost(tally);
    }
    return new LoadResults(
        plan.operation(),
        plan.connections(),
        measuredNanos,
        total,
        tally.accepted.get(),
        counts(tally.refusals),
        counts(tally.transport),
        tally.offSpec.get(),
        tally.firstProblems,
        cursorsAgree);
  }

  /** Counts of one run, shared by the connections. */
  private static final class Tally {
    final Recorder latencies = new Recorder(3);
    final AtomicLong accepted = new AtomicLong();
    final AtomicLong offSpec = new AtomicLong();
    final Map<String, AtomicLong> refusals = new ConcurrentHashMap<>();
    final Map<String, AtomicLong> transport = new ConcurrentHashMap<>();
    final List<String> firstProblems = Collections.synchronizedList(new ArrayList<>());

    void problem(String text) {
      offSpec.incrementAndGet();
      if (firstProblems.size() < 5) {
        firstProblems.add(text);
      }
    }
  }

  /** Warm-up, then the measured phase, a line of progress every 5 s; the measured nanos. */
  private long phases(Tally tally, Histogram total) throws InterruptedException {
    Thread.sleep(plan.warmup().toMillis()); // the load's own pace, not a test waiting
    tally.latencies.getIntervalHistogram(); // drops the warm-up
    tally.accepted.set(0);
    tally.refusals.clear();
    tally.transport.clear();
    long start = System.nanoTime();
    long end = start + plan.duration().toNanos();
    long accepted = 0;
    while (System.nanoTime() < end) {
      long slice = Math.min(SLICE_NANOS, end - System.nanoTime());
      Thread.sleep(Math.max(1, slice / 1_000_000));
      Histogram interval = tally.latencies.getIntervalHistogram();
      total.add(interval);
      long now = tally.accepted.get();
      long acceptedBefore = accepted;
      plan.progress()
          .ifPresent(
              out ->
                  out.printf(
                      java.util.Locale.ROOT,
                      "  %5.1f s  %,8.0f /s  p99 %,7.0f µs  refused %d  transport errors %d%n",
                      (System.nanoTime() - start) / 1e9,
                      (now - acceptedBefore) / (slice / 1e9),
                      (double) interval.getValueAtPercentile(99),
                      tally.refusals.values().stream().mapToLong(AtomicLong::get).sum(),
                      tally.transport.values().stream().mapToLong(AtomicLong::get).sum()));
      accepted = now;
    }
    return System.nanoTime() - start;
  }

  /** Registers a fresh human Actor, its Worker and an agent Worker, as the admin Actor. */
  private LoadCast register(RawTransport transport)
      throws IOException, InterruptedException, LoadSetupException {
    LoadCast cast =
        new LoadCast("actor-load-" + run, "worker-load-" + run, "worker-load-agent-" + run);
    ProtocolRecords admin = records(plan.adminActor());
    URI host = plan.hosts().get(0);
    register(
        transport,
        host,
        "registerWorker",
        cast.humanWorker(),
        admin.worker(
            cast.humanWorker(),
            WorkerType.HUMAN,
            "reviewer",
            List.of("grant:work-session"),
            List.of("work-session")));
    register(
        transport,
        host,
        "registerWorker",
        cast.agentWorker(),
        admin.worker(
            cast.agentWorker(),
            WorkerType.AGENT,
            "assistant",
            List.of("grant:work-session"),
            List.of("work-session")));
    register(
        transport,
        host,
        "registerActor",
        cast.human(),
        admin.actor(cast.human(), cast.humanWorker(), ActorType.HUMAN));
    return cast;
  }

  private void register(
      RawTransport transport, URI host, String operationId, String id, Object record)
      throws IOException, InterruptedException, LoadSetupException {
    RawExchange answer =
        transport.send(
            request(
                host,
                ProtocolOperations.byId(operationId),
                Optional.of(id),
                plan.adminActor(),
                Optional.empty(),
                bytes(record)));
    if (answer.status() / 100 != 2) {
      throw new LoadSetupException(
          "could not register "
              + answer.request().uri().getPath()
              + " as "
              + plan.adminActor()
              + ": "
              + answer.status()
              + " "
              + new String(answer.body(), java.nio.charset.StandardCharsets.UTF_8));
    }
  }

  /**
   * A request with the headers a correct client sends: the credential, the protocol version, the
   * acting Actor, for a mutation a fresh idempotency key and the request time, for a WorkSession
   * mutation the cursor.
   */
  private RawRequest request(
      URI host,
      ProtocolOperation operation,
      Optional<String> pathId,
      String actorId,
      Optional<ChainCursor> at,
      byte[] body) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Authorization", "Bearer " + plan.token());
    headers.put(JarvisHeaders.PROTOCOL_VERSION, JarvisSpec.PROTOCOL_VERSION);
    headers.put(JarvisHeaders.ACTOR_ID, actorId);
    headers.put("Content-Type", "application/json");
    if (operation.operationClass().isMutation()) {
      headers.put(JarvisHeaders.IDEMPOTENCY_KEY, UUID.randomUUID().toString());
      headers.put(JarvisHeaders.REQUEST_TIMESTAMP, RequestTimestamp.format(plan.clock().instant()));
    }
    at.ifPresent(
        cursor -> {
          headers.put(
              JarvisHeaders.EXPECTED_WORK_SESSION_REVISION, Long.toString(cursor.revision()));
          headers.put(JarvisHeaders.PREVIOUS_EVENT_HASH, cursor.lastEventHash());
        });
    return RawRequest.of(host, operation, pathId, "", headers, body);
  }

  private ProtocolRecords records(String actorId) {
    return new ProtocolRecords(plan.clock(), ids, actorId);
  }

  /** One connection: its WorkSession, its cursor, its client (or the shared one). */
  private final class Connection {
    private final LoadCast cast;
    private final URI host;
    private final RawTransport transport;
    private final ProtocolRecords records;
    private final String session;
    private ChainCursor cursor = ChainCursor.GENESIS;

    Connection(LoadCast cast, URI host, RawTransport transport) {
      this.cast = cast;
      this.host = host;
      this.transport = transport;
      this.records = records(cast.human());
      this.session = records.newId("ws-load");
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
      byte[] body =
          bytes(
              records.workSession(
                  session,
                  "Load run.",
                  cast.humanWorker(),
                  cast.agentWorker(),
                  ProtocolRecords.SAMPLE_POLICY_ID));
      send("createWorkSession", Optional.of(ChainCursor.GENESIS), body, tally, false)
          .ifPresent(answer -> cursor = cursorOf(answer));
    }

    private void once(Tally tally) throws InterruptedException {
      switch (plan.operation()) {
        case appendJarvisEvent -> {
          ObjectNode event =
              EventChain.next(
                  cursor,
                  JarvisJson.mapper()
                      .valueToTree(
                          records.addressedEvent(
                              session,
                              "note.added",
                              JarvisEventPayload.ObjectTypeEnum.WORK_SESSION,
                              session,
                              "added")));
          Optional<RawExchange> answer =
              send("appendJarvisEvent", Optional.of(cursor), bytes(event), tally, true);
          if (answer.isEmpty()) {
            cursor = reread(tally); // refused or lost: the host's cursor decides what comes next
            return;
          }
          String stored = parse(answer.get()).path("event_hash").asText();
          if (!stored.equals(event.path("event_hash").asText())) {
            tally.problem(session + ": the host stored another event than the one sent");
          }
          cursor = cursor.advance(stored);
        }
        case recordPolicyDecision -> {
          byte[] decision =
              bytes(
                  records.policyDecision(
                      session,
                      ProtocolRecords.SAMPLE_POLICY_ID,
                      ProtocolRecords.action("read_source", "source:conformance", null),
                      RiskClass.LOW,
                      PolicyDecisionResult.ALLOW,
                      "Reading a public source is within policy."));
          Optional<RawExchange> answer =
              send("recordPolicyDecision", Optional.of(cursor), decision, tally, true);
          cursor = answer.isPresent() ? cursorOf(answer.get()) : reread(tally);
        }
        case getWorkSession -> {
          if (send("getWorkSession", Optional.empty(), new byte[0], tally, true).isEmpty()) {
            cursor = reread(tally);
          }
        }
      }
    }

    /** The answer when it is a success; refusals, off-spec answers and failures are counted. */
    private Optional<RawExchange> send(
        String operationId, Optional<ChainCursor> at, byte[] body, Tally tally, boolean timed)
        throws InterruptedException {
      ProtocolOperation op = ProtocolOperations.byId(operationId);
      Optional<String> pathId = op.path().contains("{") ? Optional.of(session) : Optional.empty();
      RawRequest request = request(host, op, pathId, cast.human(), at, body);
      long start = System.nanoTime();
      RawExchange answer;
      try {
        answer = transport.send(request);
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
      if (answer.status() == op.successStatus()) {
        if (plan.validateAnswers()) {
          List<?> problems = VALIDATOR.validate(op.responseSchema(), parse(answer));
          if (!problems.isEmpty()) {
            tally.problem(op.operationId() + " answered off-spec: " + problems.get(0));
          }
        }
        if (timed) {
          tally.accepted.incrementAndGet();
        }
        return Optional.of(answer);
      }
      JsonNode refusal = parse(answer);
      if (plan.validateAnswers() && !VALIDATOR.validate("ProtocolError", refusal).isEmpty()) {
        tally.problem(
            op.operationId() + " answered " + answer.status() + " without a ProtocolError");
      }
      tally
          .refusals
          .computeIfAbsent(
              refusal.path("error_id").asText("status " + answer.status()), k -> new AtomicLong())
          .incrementAndGet();
      return Optional.empty();
    }

    private ChainCursor reread(Tally tally) throws InterruptedException {
      return send("getWorkSession", Optional.empty(), new byte[0], tally, false)
          .map(LoadGenerator::cursorOf)
          .orElse(cursor);
    }

    boolean agreesWithHost(Tally tally) throws InterruptedException {
      ChainCursor onHost = reread(tally);
      if (!onHost.equals(cursor)) {
        tally.problem(session + ": the load's cursor " + cursor + " is not the host's " + onHost);
        return false;
      }
      return true;
    }
  }

  private static ChainCursor cursorOf(RawExchange answer) {
    Optional<String> revision = answer.header(JarvisHeaders.WORK_SESSION_REVISION);
    Optional<String> hash = answer.header(JarvisHeaders.LAST_EVENT_HASH);
    if (revision.isPresent() && hash.isPresent()) {
      return new ChainCursor(Long.parseLong(revision.get()), hash.get());
    }
    JsonNode session = parse(answer);
    return new ChainCursor(
        session.path("revision").asLong(), session.path("last_event_hash").asText());
  }

  private static JsonNode parse(RawExchange answer) {
    byte[] body = answer.body();
    try {
      return body.length == 0
          ? JarvisJson.mapper().missingNode()
          : JarvisJson.mapper().readTree(body);
    } catch (IOException e) {
      return JarvisJson.mapper().missingNode();
    }
  }

  private static byte[] bytes(Object record) {
    try {
      return JarvisJson.mapper().writeValueAsBytes(record);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a record that does not write as JSON: " + e, e);
    }
  }

  private static Map<String, Long> counts(Map<String, AtomicLong> counters) {
    Map<String, Long> out = new java.util.TreeMap<>();
    counters.forEach((k, v) -> out.put(k, v.get()));
    return out;
  }
}
