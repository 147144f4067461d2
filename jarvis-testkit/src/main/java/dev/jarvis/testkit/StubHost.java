package dev.jarvis.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.OperationClass;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.error.ProtocolErrorCatalog;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.hash.RequestFingerprint;
import dev.jarvis.core.headers.MutationHeaders;
import dev.jarvis.core.headers.Parsed;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.model.ProtocolErrorId;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * The protocol logic of the stub host, independent of HTTP: verifies each request, keeps
 * WorkSessions, their event chains and idempotency records, and answers spec-valid bodies. Every
 * answer is checked against the spec before it leaves; one that fails is a defect of the stub (or
 * of the state a test forced on it) and is reported by {@link #responseDefects()}.
 *
 * <p>Thread-safe: calls are handled one at a time.
 */
final class StubHost {

  private static final String OUTCOME_REPORT = "submitOutcomeReport";

  private final Clock clock;
  private final Supplier<String> ids;
  private final PayloadValidator validator = PayloadValidator.forSpec();
  private final RequestVerifier verifier;
  private final OperationRoutes routes = new OperationRoutes();
  private final ProtocolAnswers answers;

  private final Map<String, ObjectNode> workers = new LinkedHashMap<>();
  private final Map<String, ObjectNode> actors = new LinkedHashMap<>();
  private final Map<String, WorkSessionState> sessions = new LinkedHashMap<>();
  private final IdempotencyRecords idempotency = new IdempotencyRecords();
  private final Deque<NextCall> script = new ArrayDeque<>();
  private final List<ProtocolViolation> received = new ArrayList<>();
  private final List<String> defects = new ArrayList<>();

  StubHost(Clock clock, Supplier<String> ids, List<String> capabilities) {
    this.clock = clock;
    this.ids = ids;
    this.verifier = new RequestVerifier(clock, validator);
    this.answers = new ProtocolAnswers(capabilities, ids);
  }

  /** Answers one request. */
  synchronized StubResponse handle(StubRequest request) {
    NextCall next = script.poll();
    if (next instanceof NextCall.Inject inject) {
      return StubResponse.fault(inject.fault());
    }
    Optional<OperationRoutes.Route> route = routes.find(request.method(), request.path());
    if (route.isEmpty()) {
      ProtocolViolation unknown =
          ProtocolViolation.of(
              ProtocolErrorId.UNKNOWN_STATE,
              "operation",
              request.path(),
              "The spec has no operation " + request.method() + " " + request.path() + ".");
      received.add(unknown);
      return checked(answers.refusal(404, unknown), Optional.empty());
    }
    ProtocolOperation op = route.get().operation();
    StubResponse answer = answer(op, route.get().pathParameters(), request, next);
    if (next instanceof NextCall.Delay delay) {
      answer = answer.delayedBy(delay.delay());
    }
    return answer;
  }

  private StubResponse answer(
      ProtocolOperation op, Map<String, String> path, StubRequest request, NextCall next) {
    Parsed<RequestVerifier.Verified> verified = verifier.verify(op, path, request);
    received.addAll(verified.violations());
    if (next instanceof NextCall.Refuse refuse) {
      return checked(
          answers.refusal(
              ProtocolViolation.of(
                  refuse.errorId(),
                  objectType(op),
                  "/",
                  ProtocolErrorCatalog.defaultReason(refuse.errorId()))),
          Optional.of(op));
    }
    if (!verified.isAccepted()) {
      return checked(answers.refusal(verified.violations().get(0)), Optional.of(op));
    }
    RequestVerifier.Verified call = verified.value().orElseThrow();
    if (!(call.headers() instanceof MutationHeaders mutation)) {
      return checked(read(op, path, call), Optional.of(op));
    }
    String key = mutation.idempotencyKey().value();
    String fingerprint = fingerprint(op, path, mutation, call.body());
    Optional<IdempotencyRecords.Entry> earlier = idempotency.find(key);
    if (earlier.isPresent()) {
      if (earlier.get().fingerprint().equals(fingerprint)) {
        return earlier.get().response();
      }
      ProtocolViolation mismatch =
          ProtocolViolation.header(
              ProtocolErrorId.DUPLICATE_IDEMPOTENCY_KEY_MISMATCH,
              "Jarvis-Idempotency-Key",
              "Idempotency key '"
                  + key
                  + "' was first used for a different request (operation, Actor, path, cursor"
                  + " or body).");
      received.add(mismatch);
      return checked(answers.refusal(mismatch), Optional.of(op));
    }
    StubResponse answer = checked(mutate(op, path, mutation, call.body()), Optional.of(op));
    if (answer.status() / 100 == 2) {
      idempotency.remember(key, fingerprint, answer);
    }
    return answer;
  }

  private StubResponse read(
      ProtocolOperation op, Map<String, String> path, RequestVerifier.Verified call) {
    WorkSessionState session = sessions.get(path.get("work_session_id"));
    if (session == null) {
      return answers.refusal(unknownSession(path.get("work_session_id")));
    }
    if (op.operationClass() == OperationClass.EXPORT_READ) {
      return export(op, session, call.headers().actorId().value());
    }
    return answers.success(op, session.snapshot(), Optional.empty());
  }

  private StubResponse mutate(
      ProtocolOperation op, Map<String, String> path, MutationHeaders headers, JsonNode body) {
    String actor = headers.actorId().value();
    switch (op.operationClass()) {
      case NON_WORKSESSION_MUTATION:
        return registerOrReport(op, body);
      case WORKSESSION_GENESIS_MUTATION:
        return genesis(op, actor, (ObjectNode) body);
      default:
        return scoped(op, path.get("work_session_id"), headers, (ObjectNode) body);
    }
  }

  private StubResponse registerOrReport(ProtocolOperation op, JsonNode body) {
    ObjectNode record = (ObjectNode) body.deepCopy();
    switch (op.operationId()) {
      case "registerWorker" -> workers.put(record.path("id").asText(), record);
      case "registerActor" -> actors.put(record.path("id").asText(), record);
      case OUTCOME_REPORT -> {
        WorkSessionState source = sessions.get(record.path("work_session_id").asText());
        if (source == null || !source.isTerminal()) {
          return answers.refusal(
              ProtocolViolation.of(
                  ProtocolErrorId.OUTCOME_REPORT_REQUIRES_TERMINAL_SOURCE,
                  "outcome_report",
                  "/work_session_id",
                  "WorkSession '"
                      + record.path("work_session_id").asText()
                      + "' is unknown or not terminal."));
        }
      }
      default -> {
        // Another non-WorkSession mutation the spec may add: accept it as sent.
      }
    }
    return answers.success(op, record, Optional.empty());
  }

  private StubResponse genesis(ProtocolOperation op, String actor, ObjectNode body) {
    String id = body.path("id").asText();
    if (sessions.containsKey(id)) {
      return answers.refusal(
          ProtocolViolation.header(
              ProtocolErrorId.STALE_WORK_SESSION_REVISION,
              "Jarvis-Expected-WorkSession-Revision",
              "WorkSession '" + id + "' exists already, at revision past 0."));
    }
    ObjectNode record = body.deepCopy();
    record.put("status", "active");
    WorkSessionState session = new WorkSessionState(record);
    session.append(
        EventChain.next(ChainCursor.GENESIS, eventDraft(id, "work_session.created", actor, body)),
        now());
    sessions.put(id, session);
    return answers.success(op, session.snapshot(), Optional.of(session.cursor()));
  }

  private StubResponse scoped(
      ProtocolOperation op, String sessionId, MutationHeaders headers, ObjectNode body) {
    WorkSessionState session = sessions.get(sessionId);
    if (session == null) {
      return answers.refusal(unknownSession(sessionId));
    }
    if (session.isTerminal()) {
      return answers.refusal(
          ProtocolViolation.of(
              ProtocolErrorId.MUTATION_AFTER_CLOSED,
              "work_session",
              "/status",
              "WorkSession '" + sessionId + "' is " + session.snapshot().path("status").asText()));
    }
    ChainCursor cursor = session.cursor();
    long expected = headers.expectedRevision().orElseThrow().value();
    if (expected != cursor.revision()) {
      return answers.refusal(
          ProtocolViolation.header(
              ProtocolErrorId.STALE_WORK_SESSION_REVISION,
              "Jarvis-Expected-WorkSession-Revision",
              "Expected revision "
                  + expected
                  + ", but WorkSession '"
                  + sessionId
                  + "' is at revision "
                  + cursor.revision()
                  + "."));
    }
    String previous = headers.previousEventHash().orElseThrow().value();
    if (!previous.equals(cursor.lastEventHash())) {
      return answers.refusal(
          ProtocolViolation.header(
              ProtocolErrorId.INVALID_PREVIOUS_EVENT_HASH,
              "Jarvis-Previous-Event-Hash",
              "Previous event hash '"
                  + previous
                  + "' is not the last event hash of WorkSession '"
                  + sessionId
                  + "', '"
                  + cursor.lastEventHash()
                  + "'."));
    }
    ObjectNode event;
    if (op.operationId().equals("appendJarvisEvent")) {
      Optional<ProtocolViolation> broken = EventChain.checkNext(cursor, body);
      if (broken.isPresent()) {
        received.add(broken.get());
        return answers.refusal(broken.get());
      }
      event = body;
      String type = body.path("type").asText();
      if (type.startsWith("work_session.")) {
        String status = type.substring("work_session.".length());
        if (WorkSessionState.TERMINAL.contains(status)) {
          session.setStatus(status);
        }
      }
    } else {
      event =
          EventChain.next(
              cursor, eventDraft(sessionId, eventType(op), headers.actorId().value(), body));
      session.addRecord(op.requestSchema().orElseThrow(), body);
    }
    session.append(event, now());
    return answers.success(op, body, Optional.of(session.cursor()));
  }

  private StubResponse export(ProtocolOperation op, WorkSessionState session, String actor) {
    if (!session.isTerminal()) {
      return answers.refusal(
          ProtocolViolation.of(
              ProtocolErrorId.INVALID_EXPORT_STATE,
              "work_session",
              "/status",
              "WorkSession '"
                  + session.id()
                  + "' is "
                  + session.snapshot().path("status").asText()
                  + ", not terminal."));
    }
    if (session.recordIds("Contribution").isEmpty()) {
      return answers.refusal(
          ProtocolViolation.of(
              ProtocolErrorId.INVALID_EXPORT,
              "evidence_manifest",
              "/contribution_refs",
              "WorkSession '" + session.id() + "' has no Contribution to export."));
    }
    ObjectNode manifest =
        EvidenceManifests.of(session, actor, "evidence-manifest-" + ids.get(), ids.get(), now());
    return answers.success(op, manifest, Optional.empty());
  }

  private ObjectNode eventDraft(String sessionId, String type, String actor, JsonNode subject) {
    ObjectNode draft = JsonNodeFactory.instance.objectNode();
    draft.put("id", "evt-" + ids.get());
    draft.put("type", type);
    draft.put("work_session_id", sessionId);
    draft.put("actor_id", actor);
    draft.put("timestamp", now());
    ObjectNode payload = draft.putObject("payload");
    int dot = type.indexOf('.');
    payload.put("object_type", type.substring(0, dot));
    if (subject.hasNonNull("id")) {
      payload.put("object_id", subject.path("id").asText());
    }
    payload.put("action", type.substring(dot + 1));
    return draft;
  }

  /** {@code recordPolicyDecision} → {@code policy_decision.recorded}. */
  static String eventType(ProtocolOperation op) {
    String verb = op.operationId().startsWith("record") ? "recorded" : "created";
    return ObjectTypes.of(op.requestSchema().orElseThrow()) + "." + verb;
  }

  private static String fingerprint(
      ProtocolOperation op, Map<String, String> path, MutationHeaders headers, JsonNode body) {
    return new RequestFingerprint(
            op.operationId(),
            headers.actorId().value(),
            path,
            headers
                .expectedRevision()
                .map(r -> OptionalLong.of(r.value()))
                .orElse(OptionalLong.empty()),
            headers.previousEventHash().map(h -> h.value()),
            body)
        .hash();
  }

  private StubResponse checked(StubResponse answer, Optional<ProtocolOperation> op) {
    if (answer.body().isEmpty()) {
      return answer;
    }
    String schema =
        answer.status() / 100 == 2 ? op.orElseThrow().responseSchema() : "ProtocolError";
    List<ProtocolViolation> problems = validator.validate(schema, answer.body().get());
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
    return answers.defect(defect);
  }

  private static ProtocolViolation unknownSession(String id) {
    return ProtocolViolation.of(
        ProtocolErrorId.UNKNOWN_STATE,
        "work_session",
        "/work_session_id",
        "The host knows no WorkSession '" + id + "'.");
  }

  private static String objectType(ProtocolOperation op) {
    return op.requestSchema().map(ObjectTypes::of).orElse("work_session");
  }

  private String now() {
    return RequestTimestamp.format(clock.instant());
  }

  // --- test-facing controls -------------------------------------------------------------------

  synchronized void enqueue(NextCall call) {
    script.add(call);
  }

  synchronized List<ProtocolViolation> receivedViolations() {
    return List.copyOf(received);
  }

  synchronized List<String> responseDefects() {
    return List.copyOf(defects);
  }

  synchronized Optional<ObjectNode> workSession(String id) {
    return Optional.ofNullable(sessions.get(id)).map(WorkSessionState::snapshot);
  }

  synchronized List<ObjectNode> events(String workSessionId) {
    return Optional.ofNullable(sessions.get(workSessionId))
        .map(WorkSessionState::events)
        .orElse(List.of());
  }

  synchronized Optional<ObjectNode> worker(String id) {
    return Optional.ofNullable(workers.get(id)).map(ObjectNode::deepCopy);
  }

  synchronized Optional<ObjectNode> actor(String id) {
    return Optional.ofNullable(actors.get(id)).map(ObjectNode::deepCopy);
  }

  synchronized void reset() {
    workers.clear();
    actors.clear();
    sessions.clear();
    idempotency.clear();
    script.clear();
    received.clear();
    defects.clear();
  }
}
