package dev.jarvis.host;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.ProtocolOperations;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.hash.ActionHash;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.samples.SampleRecords;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The host kit in process, no HTTP: requests go through {@link ProtocolHost#check} and {@link
 * ProtocolHost#handle} as a binding would send them. Two WorkSessions' worth of Workers and Actors
 * are registered: the session's human and agent, a second human of the same human Worker, and an
 * outsider human of another Worker.
 */
final class KitHost {

  static final String HUMAN_WORKER = "worker-human-1";
  static final String AGENT_WORKER = "worker-agent-1";
  static final String OTHER_WORKER = "worker-human-2";
  static final String HUMAN = "actor-human-1";
  static final String SECOND_HUMAN = "actor-human-1b";
  static final String AGENT = "actor-agent-1";
  static final String OUTSIDER = "actor-human-2";
  static final String ADMIN = HostConfig.DEFAULT_ADMIN_ACTOR_ID;
  static final String WS = "ws-1";
  static final String OTHER_WS = "ws-2";

  /** A clock the test moves. */
  static final class MovableClock extends Clock {
    private Instant now = Instant.parse("2026-06-12T18:00:00Z");

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }

    @Override
    public Instant instant() {
      return now;
    }

    void advance(Duration d) {
      now = now.plus(d);
    }
  }

  /** An answer: status and body. */
  record Answer(int status, JsonNode body) {
    String errorId() {
      return body.path("error_id").asText();
    }
  }

  final MovableClock clock = new MovableClock();
  final ProtocolHost host;
  private final AtomicInteger keys = new AtomicInteger();

  /** A mutation sent through {@link #send}: the request, sendable again, and its first answer. */
  record Sent(
      String operationId,
      java.util.function.Supplier<StoredResponse> again,
      StoredResponse first) {}

  /** Every mutation sent through {@link #send}, registrations included, in order. */
  final List<Sent> sent = new java.util.ArrayList<>();

  private final String adminAuthorization;

  KitHost() {
    this(HostAuth.anyCaller(), "");
  }

  /** A kit host whose Workers and Actors are registered with {@code adminAuthorization}. */
  KitHost(HostAuth auth, String adminAuthorization) {
    this(auth, adminAuthorization, b -> b);
  }

  /** A kit host whose configuration the test completes (listener, commit hook, stores). */
  KitHost(
      HostAuth auth,
      String adminAuthorization,
      java.util.function.UnaryOperator<HostConfig.Builder> configure) {
    this.adminAuthorization = adminAuthorization;
    // The sample Policy is owned by another human Worker than these: the kit host assigns it to
    // every human, as a host with one Policy for all would; a test of governance replaces this.
    host =
        new ProtocolHost(
            configure
                .apply(
                    HostConfig.builder(auth)
                        .clock(clock)
                        .governance(
                            WorkSessionGovernance.NONE.assignPolicyToEveryHuman(
                                SampleRecords.POLICY_ID)))
                .build());
    host.seedPolicy(SampleRecords.policy());
    admin("registerWorker", HUMAN_WORKER, SampleRecords.worker(HUMAN_WORKER, "human"));
    admin("registerWorker", AGENT_WORKER, SampleRecords.worker(AGENT_WORKER, "agent"));
    admin("registerWorker", OTHER_WORKER, SampleRecords.worker(OTHER_WORKER, "human"));
    for (String[] a :
        List.of(
            new String[] {HUMAN, HUMAN_WORKER, "human"},
            new String[] {SECOND_HUMAN, HUMAN_WORKER, "human"},
            new String[] {AGENT, AGENT_WORKER, "agent"},
            new String[] {OUTSIDER, OTHER_WORKER, "human"})) {
      admin("registerActor", a[0], SampleRecords.actor(a[0], a[1], a[2], "2026-06-12T17:00:00Z"));
    }
  }

  /** A kit host with {@link #WS} created by the human. */
  static KitHost withSession() {
    KitHost kit = new KitHost();
    kit.createSession(WS);
    return kit;
  }

  /** Registers a Worker or an Actor as the host's admin, as the fixture's own are. */
  void admin(String op, String id, JsonNode body) {
    Answer a =
        send(
            op,
            Map.of(op.equals("registerWorker") ? "worker_id" : "actor_id", id),
            ADMIN,
            body,
            adminAuthorization);
    if (a.status() != 200) {
      throw new AssertionError(a.body().toString());
    }
  }

  Answer createSession(String id) {
    return send(
        "createWorkSession",
        Map.of(),
        HUMAN,
        SampleRecords.workSession(id, HUMAN, HUMAN_WORKER, AGENT_WORKER, now()),
        "");
  }

  /** A WorkSession mutation at the WorkSession's current cursor. */
  Answer scoped(String op, String ws, String actor, JsonNode body) {
    return send(op, Map.of("work_session_id", ws), actor, body, "");
  }

  /** Appends a linked event of {@code type} by {@code actor}, with extra payload fields. */
  Answer append(String ws, String actor, String id, String type, ObjectNode payloadExtra) {
    ObjectNode draft = SampleRecords.eventDraft(id, ws, actor, type, now());
    ((ObjectNode) draft.path("payload")).setAll(payloadExtra);
    return scoped("appendJarvisEvent", ws, actor, EventChain.next(cursor(ws), draft));
  }

  /** The human completes the WorkSession: it appends {@code work_session.completed}. */
  Answer complete(String ws) {
    return append(
        ws, HUMAN, "evt-done", "work_session.completed", JarvisJson.mapper().createObjectNode());
  }

  /** Completes the WorkSession and exports its evidence, which seals it. */
  void completeAndExport(String ws) {
    ok(complete(ws));
    Answer export = read("exportEvidenceManifest", ws, HUMAN);
    if (export.status() != 200) {
      throw new AssertionError("export refused: " + export.body());
    }
  }

  Answer read(String op, String ws, String actor) {
    return send(op, Map.of("work_session_id", ws), actor, null, "");
  }

  ChainCursor cursor(String ws) {
    StoredSession s = host.config().stores().sessions().find(ws).orElseThrow();
    return s.cursor();
  }

  Optional<JsonNode> record(RecordKind kind, String id) {
    RecordStore records = host.config().stores().records();
    // Ids are unique per kind across the host: the WorkSession's record, else one outside any.
    return records
        .findInAnyWorkSession(kind, id)
        .map(StoredRecord::body)
        .or(() -> records.body(kind, id));
  }

  String now() {
    return RequestTimestamp.format(clock.instant());
  }

  Answer send(
      String operationId,
      Map<String, String> path,
      String actor,
      JsonNode body,
      String authorization) {
    java.util.function.Supplier<StoredResponse> request =
        prepare(operationId, path, actor, body, authorization);
    StoredResponse response = request.get();
    if (ProtocolOperations.byId(operationId).operationClass().isMutation()) {
      sent.add(new Sent(operationId, request, response));
    }
    return answerOf(response);
  }

  static Answer answerOf(StoredResponse response) {
    try {
      return new Answer(response.status(), JarvisJson.mapper().readTree(response.body()));
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * A request built now (key, timestamp, cursor) that each {@code get()} sends again, as a client's
   * retry would: through {@link ProtocolHost#check} and {@link ProtocolHost#handleCall}.
   */
  java.util.function.Supplier<StoredResponse> prepare(
      String operationId,
      Map<String, String> path,
      String actor,
      JsonNode body,
      String authorization) {
    byte[] raw = body == null ? new byte[0] : body.toString().getBytes(StandardCharsets.UTF_8);
    return prepare(operationId, path, actor, raw, authorization);
  }

  /** The same with the body as raw bytes, which need not be JSON a tree could hold. */
  java.util.function.Supplier<StoredResponse> prepare(
      String operationId,
      Map<String, String> path,
      String actor,
      byte[] raw,
      String authorization) {
    return prepare(host, operationId, path, actor, raw, authorization);
  }

  /**
   * The answer of {@code other}, a host on this kit host's stores (another instance, or one
   * configured otherwise), to the request this kit host would send now.
   */
  Answer sendThrough(
      ProtocolHost other,
      String operationId,
      Map<String, String> path,
      String actor,
      JsonNode body) {
    byte[] raw = body.toString().getBytes(StandardCharsets.UTF_8);
    return answerOf(prepare(other, operationId, path, actor, raw, "").get());
  }

  private java.util.function.Supplier<StoredResponse> prepare(
      ProtocolHost host,
      String operationId,
      Map<String, String> path,
      String actor,
      byte[] raw,
      String authorization) {
    var op = ProtocolOperations.byId(operationId);
    Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    if (!authorization.isEmpty()) {
      headers.put("Authorization", authorization);
    }
    headers.put("Jarvis-Protocol-Version", "v0.1");
    headers.put("Jarvis-Actor-Id", actor);
    if (op.operationClass().isMutation()) {
      headers.put("Jarvis-Idempotency-Key", "key-" + keys.incrementAndGet());
      headers.put("Jarvis-Request-Timestamp", now());
    }
    if (op.operationClass().needsCursor()) {
      ChainCursor c =
          path.containsKey("work_session_id")
              ? host.config()
                  .stores()
                  .sessions()
                  .find(path.get("work_session_id"))
                  .map(StoredSession::cursor)
                  .orElse(ChainCursor.GENESIS)
              : ChainCursor.GENESIS;
      headers.put("Jarvis-Expected-WorkSession-Revision", Long.toString(c.revision()));
      headers.put("Jarvis-Previous-Event-Hash", c.lastEventHash());
    }
    return () -> {
      try {
        return host.handleCall(
                host.check(op, name -> Optional.ofNullable(headers.get(name)), path, "", raw))
            .response();
      } catch (ProtocolRefusal refusal) {
        return host.refusal(refusal);
      }
    };
  }

  // --- records ---

  static ObjectNode action(String name) {
    ObjectNode a = JarvisJson.mapper().createObjectNode();
    a.put("action", name);
    a.put("target_ref", "source:external-reference");
    a.put("scope_ref", "scope:source-collection");
    return a;
  }

  ObjectNode decision(String ws, String id, String action, String result, String requestId) {
    ObjectNode d = SampleRecords.policyDecision(id, ws, AGENT, now());
    d.set("requested_action", action(action));
    d.put("normalized_action_hash", ActionHash.of(action(action)));
    d.put("result", result);
    d.put("risk_class", "medium");
    if (requestId != null) {
      d.put("request_id", requestId);
    }
    return d;
  }

  ObjectNode request(String ws, String id, String decisionId, String action, Duration expiresIn) {
    ObjectNode r =
        json(
            """
            {"id": "%s", "protocol_version": "v0.1", "work_session_id": "%s",
             "requester_actor_id": "%s", "requester_worker_id": "%s",
             "target_human_worker_id": "%s", "policy_decision_id": "%s",
             "type": "permission", "blocking_scope": "action", "reason_code": "review_required",
             "reason_summary": "External source access needs review.",
             "requested_outcome": "Allow source collection once.", "risk_class": "medium",
             "human_decision_needed": "Approve or deny.",
             "options": [{"id": "option-approve", "label": "Approve", "effect": "Collect it."}],
             "default_if_no_response": {"action": "keep_blocked_scope_stopped",
               "reason": "Nothing is fetched without a human."},
             "status": "pending", "created_at": "%s", "expires_at": "%s"}
            """
                .formatted(
                    id,
                    ws,
                    AGENT,
                    AGENT_WORKER,
                    HUMAN_WORKER,
                    decisionId,
                    now(),
                    RequestTimestamp.format(clock.instant().plus(expiresIn))));
    r.set("requested_action", action(action));
    return r;
  }

  ObjectNode review(
      String ws, String id, String actor, String worker, String target, String decision) {
    return json(
        """
        {"id": "%s", "work_session_id": "%s", "reviewer_actor_id": "%s",
         "reviewer_worker_id": "%s", "target_ref": "%s", "decision": "%s", "created_at": "%s"}
        """
            .formatted(id, ws, actor, worker, target, decision, now()));
  }

  /** An ApprovalScope for the Request as recorded, approving {@code action} once. */
  ObjectNode scope(String ws, String requestId, String reviewId, String decisionId, String action) {
    StoredRecord request =
        host.config()
            .stores()
            .records()
            .findInAnyWorkSession(RecordKind.REQUEST, requestId)
            .orElseThrow();
    ChainCursor at = request.recordedAt().orElseThrow();
    ObjectNode s =
        json(
            """
            {"request_id": "%s", "review_id": "%s", "policy_decision_id": "%s",
             "request_revision": %d, "request_event_hash": "%s",
             "allowed_scope": {"scope_ref": "scope:source-collection"},
             "denied_scope": {"scope_ref": "scope:anything-else"},
             "expires_at": "%s", "max_uses": 1,
             "applies_to_work_session_id": "%s", "applies_to_actor_id": "%s"}
            """
                .formatted(
                    requestId,
                    reviewId,
                    decisionId,
                    at.revision(),
                    at.lastEventHash(),
                    RequestTimestamp.format(clock.instant().plus(Duration.ofMinutes(30))),
                    ws,
                    AGENT));
    s.set("approved_action", action(action));
    s.put("normalized_action_hash", ActionHash.of(action(action)));
    return s;
  }

  ObjectNode takeover(
      String ws, String id, String actor, String scopeRef, String state, long epoch) {
    ObjectNode takeover =
        json(
            """
        {"id": "%s", "work_session_id": "%s", "requested_by_actor_id": "%s",
         "controlling_actor_id": "%s",
         "affected_scope": {"blocking_scope": "branch", "scope_ref": "%s"},
         "reason": "The human steers this branch.", "lock_epoch": %d, "state": "%s",
         "created_at": "%s"}
        """
                .formatted(id, ws, actor, actor, scopeRef, epoch, state, now()));
    if (state.equals("resumed") || state.equals("closed")) {
      takeover.putArray("reconciliation_refs").add("note:reconciled-by-the-human");
      takeover.put("resolved_at", now());
      takeover.put("resumed_by_actor_id", actor);
    }
    return takeover;
  }

  static ObjectNode json(String text) {
    try {
      return (ObjectNode) JarvisJson.mapper().readTree(text);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Records the agent's PolicyDecision; fails the test if refused. */
  void decide(String ws, String id, String action, String result, String requestId) {
    ok(scoped("recordPolicyDecision", ws, AGENT, decision(ws, id, action, result, requestId)));
  }

  /** The agent's {@code review_required} decision for a fetch and its pending Request. */
  void pendingFetch(String ws, String decisionId, String requestId) {
    decide(ws, decisionId, "fetch_external_source", "review_required", requestId);
    ok(
        scoped(
            "createRequest",
            ws,
            AGENT,
            request(ws, requestId, decisionId, "fetch_external_source", Duration.ofMinutes(30))));
  }

  /** The same, approved by the human with an ApprovalScope for one use. */
  void approvedFetch(String ws, String decisionId, String requestId, String reviewId) {
    pendingFetch(ws, decisionId, requestId);
    ObjectNode review =
        review(ws, reviewId, HUMAN, HUMAN_WORKER, "request:" + requestId, "approve");
    review.set(
        "approval_scope", scope(ws, requestId, reviewId, decisionId, "fetch_external_source"));
    ok(scoped("recordReview", ws, HUMAN, review));
  }

  static Answer ok(Answer a) {
    if (a.status() >= 300) {
      throw new AssertionError("refused: " + a.body());
    }
    return a;
  }

  /** Evidence refs naming a decision, as an agent action's payload carries them. */
  static ObjectNode citing(String action, String decisionId) {
    ObjectNode p = JarvisJson.mapper().createObjectNode();
    p.put("action", action);
    p.putArray("evidence_refs").add("policy_decision:" + decisionId);
    return p;
  }

  /** Everything that shows a refusal changed nothing: the cursor and every record of a session. */
  Object state(String ws) {
    List<Object> all = new java.util.ArrayList<>();
    all.add(cursor(ws));
    for (RecordKind kind : RecordKind.values()) {
      all.add(
          host.config().stores().records().inSession(kind, ws).stream()
              .map(r -> r.body().toString())
              .toList());
    }
    all.add(host.config().stores().sessions().find(ws).map(s -> s.snapshot().toString()));
    return all;
  }
}
