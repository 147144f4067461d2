package dev.jarvis.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.error.ProtocolErrorCatalog;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.eventlog.EventPage;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.core.requestinbox.InboxPage;
import dev.jarvis.core.requestinbox.RequestInbox;
import dev.jarvis.core.signature.ActorKeys;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.host.AgentActions;
import dev.jarvis.host.HeldAnswer;
import dev.jarvis.host.HostAuth;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.LiveStream;
import dev.jarvis.host.OperationRoutes;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.ProtocolRefusal;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.StoredResponse;
import dev.jarvis.host.StoredSession;
import dev.jarvis.host.WorkSessionGovernance;
import dev.jarvis.model.ProtocolErrorId;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The stub host's protocol side, independent of HTTP. Every protocol decision is the host kit's
 * ({@link ProtocolHost}): the stub only routes, plays what a test scripted for the next call,
 * records what the requests did wrong and checks every answer against the spec before it leaves.
 *
 * <p>Thread-safe: calls are handled one at a time, which also keeps a test's script in order.
 */
final class StubHost {

  private final StubSettings settings;
  private final PayloadValidator validator = PayloadValidator.forSpec();
  private final OperationRoutes routes = new OperationRoutes();

  private ProtocolHost host;
  private final Deque<ScriptedCall> script = new ArrayDeque<>();
  private final List<ProtocolViolation> received = new ArrayList<>();
  private final List<String> defects = new ArrayList<>();

  StubHost(StubSettings settings) {
    this.settings = settings;
    this.host = newHost();
  }

  /** A fresh host kit instance: in-memory stores, the stub's clock, ids and Policies. */
  private ProtocolHost newHost() {
    Supplier<String> ids = settings.ids();
    HostConfig config =
        HostConfig.builder(HostAuth.anyCaller())
            .clock(settings.clock())
            .traceIds(() -> "trace:stub-" + ids.get())
            .capabilities(settings.capabilities())
            .adminActorId(settings.adminActorId())
            .agentActions(settings.agentActions())
            .actorKeys(settings.actorKeys())
            .governance(settings.governance())
            .build();
    ProtocolHost fresh = new ProtocolHost(config);
    settings.policies().forEach(fresh::seedPolicy);
    return fresh;
  }

  /**
   * Answers a request that may wait (an {@code event-stream} long poll or stream), outside the lock
   * that orders every other answer: empty when the request is not one. WireMock sends a response
   * whole, so a stream is answered one batch at a time: the events after its start (waiting up to a
   * heartbeat interval for the first), then {@code : end batch}; the client reconnects with {@code
   * Last-Event-ID}, as after every end a host sends.
   */
  Optional<StoredResponse> held(StubRequest request) {
    ProtocolHost current;
    synchronized (this) {
      current = host;
    }
    if (!current.holds(request.method(), request.path(), request.rawQuery(), request.lookup())) {
      return Optional.empty();
    }
    HeldAnswer answer =
        current.answerHeld(
            request.method(), request.path(), request.rawQuery(), request.lookup(), request.body());
    if (answer instanceof HeldAnswer.Answered answered) {
      return Optional.of(answered.response());
    }
    if (answer instanceof HeldAnswer.Polling polling) {
      // WireMock answers on a thread of its own, which it holds until the response is whole.
      return Optional.of(polling.answer().toCompletableFuture().join());
    }
    LiveStream stream = ((HeldAnswer.Streaming) answer).stream();
    java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
    stream.runBatch(body, current.config().streams().heartbeat());
    return Optional.of(new StoredResponse(200, stream.headers(), body.toByteArray()));
  }

  /** Answers one request. */
  synchronized StubResponse handle(StubRequest request) {
    // A stub declaring no event-log is a host of the spec alone: its read is no operation here.
    Optional<OperationRoutes.Route> route =
        routes.find(request.method(), request.path()).filter(r -> host.serves(r.operation()));
    Optional<ScriptedCall> next = nextFor(route.map(OperationRoutes.Route::operation), request);
    if (next.isPresent() && next.get().action() instanceof NextCall.Inject inject) {
      return StubResponse.fault(inject.fault());
    }
    if (route.isEmpty()) {
      ProtocolViolation unknown =
          ProtocolViolation.of(
              ProtocolErrorId.UNKNOWN_STATE,
              "operation",
              request.path(),
              "The spec has no operation " + request.method() + " " + request.path() + ".");
      received.add(unknown);
      return checked(host.failure(404, unknown), Optional.empty());
    }
    ProtocolOperation op = route.get().operation();
    StubResponse answer = answer(op, route.get().pathParameters(), request, next);
    if (next.isPresent() && next.get().action() instanceof NextCall.Delay delay) {
      answer = answer.delayedBy(delay.delay());
    }
    return answer;
  }

  private StubResponse answer(
      ProtocolOperation op,
      Map<String, String> path,
      StubRequest request,
      Optional<ScriptedCall> next) {
    ProtocolCall call;
    try {
      call = host.check(op, request.lookup(), path, request.rawQuery(), request.body());
    } catch (ProtocolRefusal refusal) {
      // The guard's refusals are what a well-behaved client never sends: recorded for the test.
      received.add(refusal.violation());
      return checked(host.refusal(refusal), Optional.of(op));
    }
    if (next.isPresent() && next.get().action() instanceof NextCall.Refuse refuse) {
      ProtocolViolation scripted =
          ProtocolViolation.of(
              refuse.errorId(),
              op.requestSchema().orElse("operation"),
              "/",
              ProtocolErrorCatalog.defaultReason(refuse.errorId()));
      return checked(host.refusal(new ProtocolRefusal(scripted)), Optional.of(op));
    }
    return checked(host.handleCall(call).response(), Optional.of(op));
  }

  /** Takes the first scripted call that applies to this request, if any. */
  private Optional<ScriptedCall> nextFor(Optional<ProtocolOperation> op, StubRequest request) {
    for (var it = script.iterator(); it.hasNext(); ) {
      ScriptedCall scripted = it.next();
      if (scripted.target().matches(op, request)) {
        it.remove();
        return Optional.of(scripted);
      }
    }
    return Optional.empty();
  }

  private StubResponse checked(StoredResponse stored, Optional<ProtocolOperation> op) {
    StubResponse answer = toStub(stored);
    if (answer.body().isEmpty()) {
      return answer;
    }
    String schema =
        answer.status() / 100 == 2 ? op.orElseThrow().responseSchema() : "ProtocolError";
    List<ProtocolViolation> problems =
        schema.equals(EventLog.PAGE_SCHEMA)
            ? EventPage.violations(answer.body().get(), validator)
            : schema.equals(RequestInbox.PAGE_SCHEMA)
                ? InboxPage.violations(answer.body().get(), validator)
                : validator.validate(schema, answer.body().get());
    if (problems.isEmpty()) {
      return answer;
    }
    String defect =
        "the stub host built a "
            + schema
            + " the spec refuses"
            + op.map(o -> " for " + o.operationId()).orElse("")
            + ": "
            + problems;
    defects.add(defect);
    return StubResponse.defect(defect);
  }

  private static StubResponse toStub(StoredResponse stored) {
    byte[] body = stored.body();
    if (body.length == 0) {
      return new StubResponse(
          stored.status(), stored.headers(), Optional.empty(), Optional.empty(), Duration.ZERO);
    }
    try {
      return StubResponse.json(
          stored.status(), stored.headers(), JarvisJson.mapper().readTree(body));
    } catch (IOException e) {
      throw new UncheckedIOException("the host kit answered with a body that is not JSON", e);
    }
  }

  // --- test-facing controls -------------------------------------------------------------------

  synchronized void enqueue(ScriptedCall call) {
    script.add(call);
  }

  synchronized List<ProtocolViolation> receivedViolations() {
    return List.copyOf(received);
  }

  synchronized List<String> responseDefects() {
    return List.copyOf(defects);
  }

  synchronized Optional<ObjectNode> workSession(String id) {
    return host.config().stores().sessions().find(id).map(s -> s.snapshot().deepCopy());
  }

  synchronized List<ObjectNode> events(String workSessionId) {
    return host.config().stores().sessions().events(workSessionId).stream()
        .map(e -> (ObjectNode) e.deepCopy())
        .toList();
  }

  synchronized Optional<ObjectNode> worker(String id) {
    return record(RecordKind.WORKER, id);
  }

  synchronized Optional<ObjectNode> actor(String id) {
    return record(RecordKind.ACTOR, id);
  }

  private Optional<ObjectNode> record(RecordKind kind, String id) {
    return host.config().stores().records().body(kind, id).map(b -> (ObjectNode) b.deepCopy());
  }

  /**
   * Runs one call through the host kit's engine as Actor {@code actorId} would send it over HTTP
   * (the headers of its operation class, a fresh key and timestamp from the stub's clock and ids,
   * the WorkSession's cursor as stored): what a human Actor of a test does, without the test making
   * HTTP calls. Steering scripted for the next call does not apply to it.
   */
  synchronized StoredResponse actAs(
      String actorId, ProtocolOperation op, Map<String, String> path, JsonNode body) {
    Map<String, String> headers = new java.util.TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.put(JarvisHeaders.PROTOCOL_VERSION, dev.jarvis.core.JarvisSpec.PROTOCOL_VERSION);
    headers.put(JarvisHeaders.ACTOR_ID, actorId);
    if (op.operationClass().isMutation()) {
      headers.put(JarvisHeaders.IDEMPOTENCY_KEY, "stub-human-" + settings.ids().get());
      headers.put(
          JarvisHeaders.REQUEST_TIMESTAMP, RequestTimestamp.format(settings.clock().instant()));
    }
    if (op.operationClass().needsCursor()) {
      ChainCursor cursor =
          host.config()
              .stores()
              .sessions()
              .find(path.get("work_session_id"))
              .map(StoredSession::cursor)
              .orElse(ChainCursor.GENESIS);
      headers.put(JarvisHeaders.EXPECTED_WORK_SESSION_REVISION, Long.toString(cursor.revision()));
      headers.put(JarvisHeaders.PREVIOUS_EVENT_HASH, cursor.lastEventHash());
    }
    byte[] raw =
        body == null
            ? new byte[0]
            : body.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    try {
      ProtocolCall call =
          host.check(op, name -> Optional.ofNullable(headers.get(name)), path, "", raw);
      return host.handleCall(call).response();
    } catch (ProtocolRefusal refusal) {
      return host.refusal(refusal);
    }
  }

  /** A record of a WorkSession, with the cursor it was recorded at. */
  synchronized Optional<StoredRecord> record(RecordKind kind, String workSessionId, String id) {
    return host.config().stores().records().find(kind, workSessionId, id);
  }

  /** The clock the host runs on. */
  Clock clock() {
    return settings.clock();
  }

  /** The ids the host and its test humans take. */
  Supplier<String> ids() {
    return settings.ids();
  }

  synchronized void seed(RecordKind kind, String schema, JsonNode record) {
    List<ProtocolViolation> problems = validator.validate(schema, record);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException("not a valid " + schema + ": " + problems.get(0));
    }
    host.config()
        .stores()
        .seed(StoredRecord.global(kind, record.path("id").asText(), record.deepCopy()));
  }

  synchronized void reset() {
    host = newHost();
    script.clear();
    received.clear();
    defects.clear();
  }

  /** What a stub is built with. */
  record StubSettings(
      Clock clock,
      Supplier<String> ids,
      List<String> capabilities,
      List<JsonNode> policies,
      String adminActorId,
      AgentActions agentActions,
      ActorKeys actorKeys,
      WorkSessionGovernance governance) {}
}
