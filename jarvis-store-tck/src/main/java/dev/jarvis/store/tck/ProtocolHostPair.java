package dev.jarvis.store.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.ProtocolOperations;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.hash.ActionHash;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.host.HostAuth;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.HostStores;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.ProtocolRefusal;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.StoredResponse;
import dev.jarvis.host.StoredSession;
import dev.jarvis.host.WorkSessionGovernance;
import dev.jarvis.samples.SampleRecords;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Two host instances, each a {@link ProtocolHost} on its own handle of one store, driven in process
 * as a binding drives them (no HTTP): for the race of one record id in several WorkSessions, which
 * only the store can judge, since each instance checks ids under its own locks.
 */
final class ProtocolHostPair {

  private static final String HUMAN_WORKER = "worker-human-1";
  private static final String AGENT_WORKER = "worker-agent-1";
  private static final String HUMAN = "actor-human-1";
  private static final String AGENT = "actor-agent-1";
  private static final ObjectNode FETCH = fetch();
  private static final Instant START = Instant.parse("2026-06-12T18:00:00Z");

  /** The instances' clock: it stands still until a test moves it (a Request's expiry). */
  private static final class MovableClock extends Clock {
    private final java.util.concurrent.atomic.AtomicReference<Instant> now =
        new java.util.concurrent.atomic.AtomicReference<>(START);

    void advance(java.time.Duration by) {
      now.updateAndGet(t -> t.plus(by));
    }

    @Override
    public Instant instant() {
      return now.get();
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }

  private final MovableClock clock = new MovableClock();

  private static ObjectNode fetch() {
    ObjectNode action = JarvisJson.mapper().createObjectNode();
    action.put("action", "fetch_external_source");
    action.put("target_ref", "source:external-reference");
    action.put("scope_ref", "scope:source-collection");
    return action;
  }

  private final List<ProtocolHost> hosts;
  private final AtomicInteger keys = new AtomicInteger();

  private ProtocolHostPair(HostStores first, HostStores second) {
    hosts = List.of(host(first, clock), host(second, clock));
  }

  private static ProtocolHost host(HostStores stores, Clock clock) {
    return new ProtocolHost(
        HostConfig.builder(HostAuth.anyCaller())
            .clock(clock)
            .traceIds(() -> "trace-tck")
            .stores(stores)
            // The sample Policy's owner is not this pair's human: assigned to every human.
            .governance(
                WorkSessionGovernance.NONE.assignPolicyToEveryHuman(SampleRecords.POLICY_ID))
            .build());
  }

  /** A record whose id the instances race for, and the refusal the losers get. */
  enum Raced {
    /** {@code recordPolicyDecision}; a reused decision id is {@code invalid_transition}. */
    POLICY_DECISION("recordPolicyDecision", RecordKind.POLICY_DECISION, "invalid_transition"),
    /**
     * {@code createRequest}, each WorkSession holding its own {@code review_required} decision
     * first; a reused Request id is {@code duplicate_request_mismatch}.
     */
    REQUEST("createRequest", RecordKind.REQUEST, "duplicate_request_mismatch");

    final String operationId;
    final RecordKind kind;
    final String loserErrorId;

    Raced(String operationId, RecordKind kind, String loserErrorId) {
      this.operationId = operationId;
      this.kind = kind;
      this.loserErrorId = loserErrorId;
    }
  }

  /**
   * In each of {@code rounds}, {@code writers} requests write a record of one new id, each in its
   * own fresh WorkSession, alternately through either instance, released together: exactly one is
   * accepted; every other is refused with the reuse's {@code error_id} and changed nothing.
   */
  static void race(
      Raced raced,
      HostStores first,
      HostStores second,
      ExecutorService pool,
      int writers,
      int rounds)
      throws Exception {
    ProtocolHostPair pair = new ProtocolHostPair(first, second);
    pair.setUp();
    for (int round = 0; round < rounds; round++) {
      String id = (raced == Raced.REQUEST ? "req" : "pd") + "-race-" + round;
      List<ChainCursor> before = new ArrayList<>();
      List<Callable<Answer>> tasks = new ArrayList<>();
      for (int i = 0; i < writers; i++) {
        String ws = "ws-" + round + "-" + i;
        accepted(pair.createWorkSession(ws));
        JsonNode body = pair.body(raced, ws, id);
        ChainCursor at = pair.cursor(ws);
        before.add(at);
        ProtocolHost instance = pair.hosts.get(i % 2);
        Map<String, String> headers = pair.headers(AGENT, at);
        tasks.add(
            () ->
                pair.send(
                    instance, raced.operationId, Map.of("work_session_id", ws), headers, body));
      }
      List<Answer> answers = Together.run(pool, tasks);
      List<Integer> winners = new ArrayList<>();
      for (int i = 0; i < writers; i++) {
        Answer answer = answers.get(i);
        if (answer.status() == 201) {
          winners.add(i);
        } else {
          assertEquals(raced.loserErrorId, answer.errorId(), "round " + round + ": " + answer);
        }
      }
      assertEquals(1, winners.size(), "round " + round + ": " + answers);
      for (int i = 0; i < writers; i++) {
        String ws = "ws-" + round + "-" + i;
        boolean won = winners.get(0) == i;
        for (ProtocolHost instance : pair.hosts) {
          HostStores stores = instance.config().stores();
          assertEquals(
              won,
              !stores.sessions().find(ws).orElseThrow().cursor().equals(before.get(i)),
              ws + " moved on only if it won");
          assertEquals(won, stores.records().find(raced.kind, ws, id).isPresent(), ws);
        }
      }
    }
  }

  /**
   * Both instances sweep Request expiries together ({@link ProtocolHost#expireDueRequests}) once
   * the Requests of {@code workSessions} WorkSessions are past their {@code expires_at}, with
   * nobody touching those WorkSessions: every Request is written expired exactly once, by one
   * instance or the other, and each chain holds exactly one {@code request.expired} event for it.
   */
  static void sweepTogether(
      HostStores first, HostStores second, ExecutorService pool, int workSessions)
      throws Exception {
    ProtocolHostPair pair = new ProtocolHostPair(first, second);
    pair.setUp();
    for (int i = 0; i < workSessions; i++) {
      String ws = "ws-sweep-" + i;
      accepted(pair.createWorkSession(ws));
      JsonNode request = pair.body(Raced.REQUEST, ws, "req-sweep-" + i);
      accepted(
          pair.send(
              pair.hosts.get(i % 2),
              "createRequest",
              Map.of("work_session_id", ws),
              pair.headers(AGENT, pair.cursor(ws)),
              request));
    }
    pair.clock.advance(java.time.Duration.ofMinutes(30));
    List<Callable<Integer>> sweeps = new ArrayList<>();
    for (ProtocolHost instance : pair.hosts) {
      sweeps.add(instance::expireDueRequests);
    }
    int written = Together.run(pool, sweeps).stream().mapToInt(Integer::intValue).sum();
    assertEquals(workSessions, written, "each expiry written by one instance");
    for (int i = 0; i < workSessions; i++) {
      String ws = "ws-sweep-" + i;
      for (ProtocolHost instance : pair.hosts) {
        HostStores stores = instance.config().stores();
        assertEquals(
            1,
            stores.sessions().events(ws).stream()
                .filter(e -> e.path("type").asText().equals("request.expired"))
                .count(),
            ws + ": one request.expired event");
        assertEquals(
            "expired",
            stores
                .records()
                .find(RecordKind.REQUEST, ws, "req-sweep-" + i)
                .orElseThrow()
                .body()
                .path("status")
                .asText());
      }
    }
    for (ProtocolHost instance : pair.hosts) {
      assertEquals(0, instance.expireDueRequests(), "nothing is due any more");
    }
  }

  /** The raced request's body in {@code ws}, after what it needs there. */
  private JsonNode body(Raced raced, String ws, String id) {
    if (raced == Raced.POLICY_DECISION) {
      return SampleRecords.policyDecision(id, ws, AGENT, now());
    }
    String decisionId = "pd-for-" + ws;
    ObjectNode decision = SampleRecords.policyDecision(decisionId, ws, AGENT, now());
    decision.set("requested_action", FETCH);
    decision.put("normalized_action_hash", ActionHash.of(FETCH));
    decision.put("result", "review_required");
    decision.put("risk_class", "medium");
    decision.put("request_id", id);
    accepted(
        send(
            hosts.get(0),
            "recordPolicyDecision",
            Map.of("work_session_id", ws),
            headers(AGENT, cursor(ws)),
            decision));
    ObjectNode request = JarvisJson.mapper().createObjectNode();
    request.put("id", id);
    request.put("protocol_version", JarvisSpec.PROTOCOL_VERSION);
    request.put("work_session_id", ws);
    request.put("requester_actor_id", AGENT);
    request.put("requester_worker_id", AGENT_WORKER);
    request.put("target_human_worker_id", HUMAN_WORKER);
    request.put("policy_decision_id", decisionId);
    request.put("type", "permission");
    request.put("blocking_scope", "action");
    request.put("reason_code", "review_required");
    request.put("reason_summary", "External source access needs review.");
    request.put("requested_outcome", "Allow source collection once.");
    request.put("risk_class", "medium");
    request.put("human_decision_needed", "Approve or deny.");
    ObjectNode option = request.putArray("options").addObject();
    option.put("id", "option-approve");
    option.put("label", "Approve");
    option.put("effect", "Collect it.");
    ObjectNode fallback = request.putObject("default_if_no_response");
    fallback.put("action", "keep_blocked_scope_stopped");
    fallback.put("reason", "Nothing is fetched without a human.");
    request.put("status", "pending");
    request.put("created_at", now());
    request.put("expires_at", RequestTimestamp.format(clock.instant().plusSeconds(1800)));
    request.set("requested_action", FETCH);
    return request;
  }

  private void setUp() {
    ProtocolHost host = hosts.get(0);
    host.seedPolicy(SampleRecords.policy());
    admin("registerWorker", "worker_id", HUMAN_WORKER, SampleRecords.worker(HUMAN_WORKER, "human"));
    admin("registerWorker", "worker_id", AGENT_WORKER, SampleRecords.worker(AGENT_WORKER, "agent"));
    admin(
        "registerActor",
        "actor_id",
        HUMAN,
        SampleRecords.actor(HUMAN, HUMAN_WORKER, "human", "2026-06-12T17:00:00Z"));
    admin(
        "registerActor",
        "actor_id",
        AGENT,
        SampleRecords.actor(AGENT, AGENT_WORKER, "agent", "2026-06-12T17:00:00Z"));
  }

  private void admin(String operationId, String pathName, String id, JsonNode body) {
    accepted(
        send(
            hosts.get(0),
            operationId,
            Map.of(pathName, id),
            headers(HostConfig.DEFAULT_ADMIN_ACTOR_ID, null),
            body));
  }

  private Answer createWorkSession(String id) {
    return send(
        hosts.get(0),
        "createWorkSession",
        Map.of(),
        headers(HUMAN, ChainCursor.GENESIS),
        SampleRecords.workSession(id, HUMAN, HUMAN_WORKER, AGENT_WORKER, now()));
  }

  private ChainCursor cursor(String workSessionId) {
    return hosts
        .get(1)
        .config()
        .stores()
        .sessions()
        .find(workSessionId)
        .map(StoredSession::cursor)
        .orElseThrow();
  }

  private String now() {
    return RequestTimestamp.format(clock.instant());
  }

  /** A mutation's headers, with the cursor when it needs one (else {@code null}). */
  private Map<String, String> headers(String actor, ChainCursor cursor) {
    Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    headers.put(JarvisHeaders.PROTOCOL_VERSION, JarvisSpec.PROTOCOL_VERSION);
    headers.put(JarvisHeaders.ACTOR_ID, actor);
    headers.put(JarvisHeaders.IDEMPOTENCY_KEY, "tck-key-" + keys.incrementAndGet());
    headers.put(JarvisHeaders.REQUEST_TIMESTAMP, now());
    if (cursor != null) {
      headers.put(JarvisHeaders.EXPECTED_WORK_SESSION_REVISION, Long.toString(cursor.revision()));
      headers.put(JarvisHeaders.PREVIOUS_EVENT_HASH, cursor.lastEventHash());
    }
    return headers;
  }

  private Answer send(
      ProtocolHost host,
      String operationId,
      Map<String, String> path,
      Map<String, String> headers,
      JsonNode body) {
    byte[] raw = body.toString().getBytes(StandardCharsets.UTF_8);
    StoredResponse response;
    try {
      response =
          host.handleCall(
                  host.check(
                      ProtocolOperations.byId(operationId),
                      name -> Optional.ofNullable(headers.get(name)),
                      path,
                      raw))
              .response();
    } catch (ProtocolRefusal refusal) {
      response = host.refusal(refusal);
    }
    try {
      return new Answer(response.status(), JarvisJson.mapper().readTree(response.body()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void accepted(Answer answer) {
    assertTrue(answer.status() < 300, () -> "refused: " + answer);
  }

  /** A host's answer: status and body. */
  private record Answer(int status, JsonNode body) {
    String errorId() {
      return body.path("error_id").asText();
    }
  }
}
