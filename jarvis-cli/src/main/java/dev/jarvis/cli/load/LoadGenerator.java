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
import dev.jarvis.samples.SampleRecords;
import java.io.IOException;
import java.net.URI;
import java.time.Instant;
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
 *
 * <p>A {@link LoadPlan#light() light} plan keeps the chain and the cursors but spends far less of
 * the machine per request: each event is written from its connection's {@link EventTemplate} (only
 * the id, time and chain fields computed per event), sent over a {@link PlainHttpConnection}, and
 * the answer read for its status and cursor headers only.
 */
public final class LoadGenerator {

  private static final PayloadValidator VALIDATOR = PayloadValidator.forSpec();
  private static final long SLICE_NANOS = 5_000_000_000L;

  private final LoadPlan plan;
  private final String run = UUID.randomUUID().toString().substring(0, 8);
  private final AtomicLong serial = new AtomicLong();
  private final Supplier<String> ids = () -> run + "-" + serial.incrementAndGet();

  /** The run's shared {@code java.net.http} client, made when first needed (never when light). */
  private RawTransport shared;

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
    LoadCast cast =
        plan.cast().isPresent() ? plan.cast().get() : register(wire(plan.hosts().get(0), false));
    List<Connection> all = new ArrayList<>();
    for (int c = 0; c < plan.connections(); c++) {
      URI host = plan.hosts().get(c % plan.hosts().size());
      all.add(new Connection(cast, host, wire(host, plan.transportPerConnection())));
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
    // The requests in flight at the end are counted as accepted, so their latencies count too.
    total.add(tally.latencies.getIntervalHistogram());
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
    if (!plan.warmup().isZero()) {
      Thread.sleep(plan.warmup().toMillis()); // the load's own pace, not a test waiting
      tally.latencies.getIntervalHistogram(); // drops the warm-up
      tally.accepted.set(0);
      tally.refusals.clear();
      tally.transport.clear();
    } // without one every request counts, so the counts are the host's exactly
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

  /**
   * How one connection's requests travel: over a plain socket of its own when the plan is light,
   * else over a {@link RawTransport}, its own or the one shared by the run.
   */
  private Wire wire(URI host, boolean ownTransport) {
    if (plan.light()) {
      PlainHttpConnection connection = new PlainHttpConnection(host);
      return (op, uri, headers, body) ->
          connection.exchange(op.httpMethod(), target(uri), headers, body);
    }
    if (!ownTransport && shared == null) {
      shared = RawTransport.create();
    }
    RawTransport transport = ownTransport ? RawTransport.create() : shared;
    return (op, uri, headers, body) -> {
      RawExchange answer = transport.send(new RawRequest(op.httpMethod(), uri, headers, body));
      Map<String, String> joined = new java.util.HashMap<>();
      answer.headers().forEach((name, values) -> joined.put(name, String.join(", ", values)));
      return new LoadAnswer(answer.status(), joined, answer.body());
    };
  }

  private static String target(URI uri) {
    return uri.getRawQuery() == null
        ? uri.getRawPath()
        : uri.getRawPath() + "?" + uri.getRawQuery();
  }

  /** One request out, its answer back. */
  private interface Wire {
    LoadAnswer send(ProtocolOperation op, URI uri, Map<String, String> headers, byte[] body)
        throws IOException, InterruptedException;
  }

  /** Registers a fresh human Actor, its Worker and an agent Worker, as the admin Actor. */
  private LoadCast register(Wire wire)
      throws IOException, InterruptedException, LoadSetupException {
    LoadCast cast =
        new LoadCast("actor-load-" + run, "worker-load-" + run, "worker-load-agent-" + run);
    ProtocolRecords admin = records(plan.adminActor());
    URI host = plan.hosts().get(0);
    register(
        wire,
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
        wire,
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
        wire,
        host,
        "registerActor",
        cast.human(),
        admin.actor(cast.human(), cast.humanWorker(), ActorType.HUMAN));
    return cast;
  }

  private void register(Wire wire, URI host, String operationId, String id, Object record)
      throws IOException, InterruptedException, LoadSetupException {
    ProtocolOperation op = ProtocolOperations.byId(operationId);
    URI uri = uri(host, op, Optional.of(id));
    LoadAnswer answer =
        wire.send(
            op,
            uri,
            headers(op, plan.adminActor(), Optional.empty(), ids.get(), timestamp()),
            bytes(record));
    if (answer.status() / 100 != 2) {
      throw new LoadSetupException(
          "could not register "
              + uri.getPath()
              + " as "
              + plan.adminActor()
              + ": "
              + answer.status()
              + " "
              + new String(answer.body(), java.nio.charset.StandardCharsets.UTF_8));
    }
  }

  /**
   * The headers a correct client sends: the credential, the protocol version, the acting Actor, for
   * a mutation an idempotency key (unique in the run) and the request time, for a WorkSession
   * mutation the cursor.
   */
  private Map<String, String> headers(
      ProtocolOperation operation,
      String actorId,
      Optional<ChainCursor> at,
      String idempotencyKey,
      String now) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Authorization", "Bearer " + plan.token());
    headers.put(JarvisHeaders.PROTOCOL_VERSION, JarvisSpec.PROTOCOL_VERSION);
    headers.put(JarvisHeaders.ACTOR_ID, actorId);
    headers.put("Content-Type", "application/json");
    if (operation.operationClass().isMutation()) {
      headers.put(JarvisHeaders.IDEMPOTENCY_KEY, idempotencyKey);
      headers.put(JarvisHeaders.REQUEST_TIMESTAMP, now);
    }
    at.ifPresent(
        cursor -> {
          headers.put(
              JarvisHeaders.EXPECTED_WORK_SESSION_REVISION, Long.toString(cursor.revision()));
          headers.put(JarvisHeaders.PREVIOUS_EVENT_HASH, cursor.lastEventHash());
        });
    return headers;
  }

  /** Now, to the second, as a request timestamp and an event's time are written. */
  private String timestamp() {
    return RequestTimestamp.format(Instant.ofEpochSecond(plan.clock().instant().getEpochSecond()));
  }

  private static URI uri(URI host, ProtocolOperation operation, Optional<String> pathId) {
    return RawRequest.of(host, operation, pathId, "", Map.of(), new byte[0]).uri();
  }

  private ProtocolRecords records(String actorId) {
    return new ProtocolRecords(plan.clock(), ids, actorId);
  }

  /** One connection: its WorkSession, its cursor, its client (or the shared one). */
  private final class Connection {
    private final LoadCast cast;
    private final URI host;
    private final Wire wire;
    private final ProtocolRecords records;
    private final String session;
    private final Map<String, URI> uris = new java.util.HashMap<>();
    private final Optional<EventTemplate> template;
    private ChainCursor cursor = ChainCursor.GENESIS;
    private long second = Long.MIN_VALUE;
    private String secondText = "";

    Connection(LoadCast cast, URI host, Wire wire) {
      this.cast = cast;
      this.host = host;
      this.wire = wire;
      this.records = records(cast.human());
      this.session = records.newId("ws-load");
      this.template = plan.light() ? Optional.of(new EventTemplate(draft())) : Optional.empty();
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
                  SampleRecords.POLICY_ID));
      send("createWorkSession", Optional.of(ChainCursor.GENESIS), body, tally, false)
          .ifPresent(answer -> cursor = cursorOf(answer));
    }

    /** The next event's draft: ids, time and chain fields are filled per event. */
    private ObjectNode draft() {
      return JarvisJson.mapper()
          .valueToTree(
              records.addressedEvent(
                  session,
                  "note.added",
                  JarvisEventPayload.ObjectTypeEnum.WORK_SESSION,
                  session,
                  "added"));
    }

    private void once(Tally tally) throws InterruptedException {
      switch (plan.operation()) {
        case appendJarvisEvent -> {
          byte[] body;
          String sent;
          if (template.isPresent()) {
            EventTemplate.Written event =
                template.get().next(cursor, records.newId("evt"), timestamp());
            body = event.body();
            sent = event.eventHash();
          } else {
            ObjectNode event = EventChain.next(cursor, draft());
            body = bytes(event);
            sent = event.path("event_hash").asText();
          }
          Optional<LoadAnswer> answer =
              send("appendJarvisEvent", Optional.of(cursor), body, tally, true);
          if (answer.isEmpty()) {
            cursor = reread(tally); // refused or lost: the host's cursor decides what comes next
            return;
          }
          // The host's cursor header names the event it stored; without the header, its body.
          String stored =
              answer
                  .get()
                  .header(JarvisHeaders.LAST_EVENT_HASH)
                  .orElseGet(() -> parse(answer.get()).path("event_hash").asText());
          if (!stored.equals(sent)) {
            tally.problem(session + ": the host stored another event than the one sent");
          }
          cursor = cursor.advance(stored);
        }
        case recordPolicyDecision -> {
          byte[] decision =
              bytes(
                  records.policyDecision(
                      session,
                      SampleRecords.POLICY_ID,
                      ProtocolRecords.action("read_source", "source:conformance", null),
                      RiskClass.LOW,
                      PolicyDecisionResult.ALLOW,
                      "Reading a public source is within policy."));
          Optional<LoadAnswer> answer =
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

    /** Now to the second, written once a second: a light load sends thousands a second. */
    private String timestamp() {
      long now = plan.clock().instant().getEpochSecond();
      if (now != second) {
        second = now;
        secondText = RequestTimestamp.format(Instant.ofEpochSecond(now));
      }
      return secondText;
    }

    /** The answer when it is a success; refusals, off-spec answers and failures are counted. */
    private Optional<LoadAnswer> send(
        String operationId, Optional<ChainCursor> at, byte[] body, Tally tally, boolean timed)
        throws InterruptedException {
      ProtocolOperation op = ProtocolOperations.byId(operationId);
      URI uri =
          uris.computeIfAbsent(
              operationId,
              id ->
                  uri(host, op, op.path().contains("{") ? Optional.of(session) : Optional.empty()));
      Map<String, String> headers =
          headers(op, cast.human(), at, records.newId("load"), timestamp());
      long start = System.nanoTime();
      LoadAnswer answer;
      try {
        answer = wire.send(op, uri, headers, body);
      } catch (IOException | RuntimeException e) {
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

  private static ChainCursor cursorOf(LoadAnswer answer) {
    Optional<String> revision = answer.header(JarvisHeaders.WORK_SESSION_REVISION);
    Optional<String> hash = answer.header(JarvisHeaders.LAST_EVENT_HASH);
    if (revision.isPresent() && hash.isPresent()) {
      return new ChainCursor(Long.parseLong(revision.get()), hash.get());
    }
    JsonNode session = parse(answer);
    return new ChainCursor(
        session.path("revision").asLong(), session.path("last_event_hash").asText());
  }

  private static JsonNode parse(LoadAnswer answer) {
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
