package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.StoredRecord;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The hostile agent of issue #9, over HTTP against a reference host whose tokens are bound to
 * Actors. It holds only its own valid token and tries, in order, each thing the protocol exists to
 * prevent; each attempt is refused and changes nothing: neither cursor nor record of any
 * WorkSession.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class HostileAgentTest {

  private static final String WS = Payloads.WS;
  private static final String WS_2 = "ws-protocol-002";
  private static final String OUTSIDER_WORKER = "worker-human-999";
  private static final String OUTSIDER = TestHost.OUTSIDER;

  private final TestHost t = TestHost.withCredentials();

  @AfterAll
  void stop() {
    t.close();
  }

  /** Everything a refusal must leave as it was. */
  private List<Object> everything() {
    List<Object> state = new ArrayList<>();
    for (String ws : List.of(WS, WS_2)) {
      state.add(
          t.host.host().config().stores().sessions().find(ws).map(s -> s.snapshot().toString()));
      for (RecordKind kind : RecordKind.values()) {
        state.add(
            t.host.host().config().stores().records().inSession(kind, ws).stream()
                .map(StoredRecord::body)
                .map(Object::toString)
                .toList());
      }
    }
    state.add(t.host.host().config().stores().records().find(RecordKind.ACTOR, "actor-forged"));
    return state;
  }

  private void refusedUnchanged(String errorId, java.util.function.Supplier<Answer> attempt) {
    List<Object> before = everything();
    Answer a = attempt.get();
    assertEquals(errorId, a.errorId(), a.text());
    assertEquals(before, everything(), "the refusal changed something");
  }

  private Answer post(String ws, String path, String actor, ObjectNode body) {
    return t.send(
        "POST", "/work-sessions/" + ws + path, t.scoped(actor, cursor(ws)), body.toString());
  }

  private ChainCursor cursor(String ws) {
    return t.host.host().config().stores().sessions().find(ws).orElseThrow().cursor();
  }

  private Answer appendAgentEvent(String id, String type, String action, String decisionId) {
    ObjectNode draft = Payloads.event(id, type, Payloads.AGENT);
    draft.put("timestamp", RequestTimestamp.format(t.clock.instant()));
    ObjectNode payload = (ObjectNode) draft.path("payload");
    payload.put("action", action);
    if (decisionId != null) {
      payload.putArray("evidence_refs").add("policy_decision:" + decisionId);
    }
    return post(WS, "/events", Payloads.AGENT, EventChain.next(cursor(WS), draft));
  }

  private static void ok(Answer a) {
    assertEquals(true, a.status() < 300, a.text());
  }

  @Test
  @Order(1)
  void an_approval_of_one_action_admits_neither_another_action_nor_a_second_use() {
    ObjectNode d = Payloads.decision("pd-1", "fetch_external_source", "review_required");
    d.put("request_id", "req-1");
    ok(post(WS, "/policy-decisions", Payloads.AGENT, d));
    Answer request =
        post(
            WS,
            "/requests",
            Payloads.AGENT,
            Payloads.request("req-1", "pd-1", "fetch_external_source"));
    ok(request);
    ObjectNode review = Payloads.review("review-1", "req-1", "approve");
    review.set(
        "approval_scope",
        Payloads.approvalScope(
            "req-1",
            "review-1",
            "pd-1",
            Long.parseLong(request.header("Jarvis-WorkSession-Revision").orElseThrow()),
            request.header("Jarvis-Last-Event-Hash").orElseThrow()));
    ok(post(WS, "/reviews", Payloads.HUMAN, review));
    ok(appendAgentEvent("event-fetch-1", "agent.acted", "fetch_external_source", "pd-1"));

    ObjectNode again = Payloads.decision("pd-2", "fetch_external_source", "review_required");
    again.put("request_id", "req-1");
    ok(post(WS, "/policy-decisions", Payloads.AGENT, again));
    refusedUnchanged(
        "approval_scope_mismatch",
        () ->
            appendAgentEvent("event-fetch-again", "agent.acted", "fetch_external_source", "pd-2"));
    refusedUnchanged(
        "approval_scope_expired",
        () -> appendAgentEvent("event-fetch-2", "agent.acted", "fetch_external_source", "pd-1"));
  }

  @Test
  @Order(2)
  void naming_the_admin_actor_with_the_agents_token_registers_no_one() {
    ObjectNode forged = Payloads.actor("actor-forged", Payloads.HUMAN_WORKER, "human", true);
    refusedUnchanged(
        "unauthorized_actor",
        () -> {
          var headers = t.mutation(TestHost.ADMIN);
          headers.put("Authorization", "Bearer " + t.tokenOf(Payloads.AGENT));
          return t.send("PUT", "/actors/actor-forged", headers, forged.toString());
        });
    refusedUnchanged(
        "unauthorized_actor",
        () -> {
          var headers = t.scoped(Payloads.HUMAN, cursor(WS));
          headers.put("Authorization", "Bearer " + t.tokenOf(Payloads.AGENT));
          return t.send(
              "POST",
              "/work-sessions/" + WS + "/reviews",
              headers,
              Payloads.review("review-2", "req-1", "approve").toString());
        });
  }

  @Test
  @Order(3)
  void a_record_id_of_another_worksession_is_refused() {
    ObjectNode session = Payloads.workSession(WS_2);
    var headers = t.mutation(Payloads.HUMAN);
    headers.put("Jarvis-Expected-WorkSession-Revision", "0");
    headers.put("Jarvis-Previous-Event-Hash", "hash:protocol-genesis");
    ok(t.send("POST", "/work-sessions", headers, session.toString()));
    ObjectNode d = Payloads.decision("pd-3", "fetch_external_source", "review_required");
    d.put("work_session_id", WS_2);
    d.put("request_id", "req-1");
    ok(post(WS_2, "/policy-decisions", Payloads.AGENT, d));

    ObjectNode reusedRequest = Payloads.request("req-1", "pd-3", "fetch_external_source");
    reusedRequest.put("work_session_id", WS_2);
    refusedUnchanged(
        "duplicate_request_mismatch", () -> post(WS_2, "/requests", Payloads.AGENT, reusedRequest));
    ObjectNode reusedDecision = Payloads.decision("pd-1", "summarize", "allow");
    reusedDecision.put("work_session_id", WS_2);
    refusedUnchanged(
        "invalid_transition",
        () -> post(WS_2, "/policy-decisions", Payloads.AGENT, reusedDecision));
  }

  @Test
  @Order(4)
  void a_human_who_is_not_the_requests_target_cannot_approve_it() {
    var admin = t.mutation(TestHost.ADMIN);
    ok(
        t.send(
            "PUT",
            "/workers/" + OUTSIDER_WORKER,
            admin,
            Payloads.worker(OUTSIDER_WORKER, "human").toString()));
    ok(
        t.send(
            "PUT",
            "/actors/" + OUTSIDER,
            t.mutation(TestHost.ADMIN),
            Payloads.actor(OUTSIDER, OUTSIDER_WORKER, "human", true).toString()));
    ObjectNode d = Payloads.decision("pd-4", "fetch_external_source", "review_required");
    d.put("request_id", "req-4");
    ok(post(WS, "/policy-decisions", Payloads.AGENT, d));
    ok(
        post(
            WS,
            "/requests",
            Payloads.AGENT,
            Payloads.request("req-4", "pd-4", "fetch_external_source")));
    ObjectNode review = Payloads.review("review-4", "req-4", "deny");
    review.put("reviewer_actor_id", OUTSIDER);
    review.put("reviewer_worker_id", OUTSIDER_WORKER);
    // The outsider calls with its own valid token: neither the Request's target nor a member.
    refusedUnchanged("unauthorized_actor", () -> post(WS, "/reviews", OUTSIDER, review));
    ok(post(WS, "/reviews", Payloads.HUMAN, Payloads.review("review-4", "req-4", "deny")));
  }

  @Test
  @Order(5)
  void resuming_one_of_two_locked_takeovers_does_not_free_the_agent() {
    ObjectNode first = Payloads.takeover("takeover-1", "locked", 1);
    ok(post(WS, "/takeovers", Payloads.HUMAN, first));
    ObjectNode second = Payloads.takeover("takeover-2", "locked", 1);
    ((ObjectNode) second.path("affected_scope")).put("scope_ref", "scope:branch-2");
    ok(post(WS, "/takeovers", Payloads.HUMAN, second));
    ObjectNode resumed = Payloads.takeover("takeover-1", "resumed", 1);
    resumed.putArray("reconciliation_refs").add("note:reconciled");
    resumed.put("resolved_at", RequestTimestamp.format(t.clock.instant()));
    resumed.put("resumed_by_actor_id", Payloads.HUMAN);
    ok(post(WS, "/takeovers", Payloads.HUMAN, resumed));
    refusedUnchanged(
        "stale_takeover_epoch", () -> appendAgentEvent("event-during", "agent.note", "note", null));
    ObjectNode resumedToo = Payloads.takeover("takeover-2", "resumed", 1);
    ((ObjectNode) resumedToo.path("affected_scope")).put("scope_ref", "scope:branch-2");
    resumedToo.putArray("reconciliation_refs").add("note:reconciled");
    resumedToo.put("resolved_at", RequestTimestamp.format(t.clock.instant()));
    resumedToo.put("resumed_by_actor_id", Payloads.HUMAN);
    ok(post(WS, "/takeovers", Payloads.HUMAN, resumedToo));
  }

  @Test
  @Order(6)
  void a_request_that_is_expired_on_arrival_is_refused() {
    ObjectNode d = Payloads.decision("pd-6", "fetch_external_source", "review_required");
    d.put("request_id", "req-6");
    ok(post(WS, "/policy-decisions", Payloads.AGENT, d));
    ObjectNode request = Payloads.request("req-6", "pd-6", "fetch_external_source");
    request.put(
        "expires_at", RequestTimestamp.format(t.clock.instant().minus(Duration.ofMinutes(1))));
    refusedUnchanged(
        "invalid_request_transition", () -> post(WS, "/requests", Payloads.AGENT, request));
  }

  @Test
  @Order(7)
  void an_approval_scope_on_a_review_of_no_request_is_refused() {
    ObjectNode review = Payloads.review("review-7", "req-1", "approve");
    review.put("target_ref", "work_session:" + WS);
    ObjectNode scope =
        Payloads.approvalScope("req-nowhere", "review-7", "pd-1", 1, "sha256:" + "0".repeat(64));
    scope.put("applies_to_work_session_id", WS_2);
    scope.put("max_uses", 1000000);
    review.set("approval_scope", scope);
    refusedUnchanged("invalid_approval_scope", () -> post(WS, "/reviews", Payloads.HUMAN, review));
  }

  @Test
  @Order(8)
  void the_agent_cannot_forge_a_host_written_event() {
    refusedUnchanged(
        "unauthorized_actor",
        () -> appendAgentEvent("event-forged-review", "review.recorded", "recorded", null));
    refusedUnchanged(
        "unauthorized_actor",
        () -> appendAgentEvent("event-forged-genesis", "work_session.created", "created", null));
  }

  // --- issue #22: the Policy, enforced over HTTP ---

  @ParameterizedTest(name = "the agent''s own {0} of fetch_external_source is refused")
  @ValueSource(strings = {"allow", "narrow"})
  @Order(9)
  void the_agent_cannot_narrow_or_allow_a_reviewed_action_itself(String result) {
    String id = "pd-self-" + result;
    refusedUnchanged(
        "review_required",
        () ->
            post(
                WS,
                "/policy-decisions",
                Payloads.AGENT,
                Payloads.decision(id, "fetch_external_source", result)));
  }

  @ParameterizedTest(name = "an agent''s ''{0}'' without a decision is refused")
  @ValueSource(
      strings = {
        "publish_answer",
        "PUBLISH_ANSWER",
        "publish_answer ",
        "publish_answer\u200B",
        "publish_\u0430nswer",
        "summarize"
      })
  @Order(10)
  void an_agent_action_the_policy_does_not_name_needs_a_decision_too(String action) {
    refusedUnchanged(
        "missing_policy_decision",
        () -> appendAgentEvent("event-unlisted", "agent.acted", action, null));
  }

  @ParameterizedTest(name = "an allow decision for ''{0}'' is refused: default deny")
  @ValueSource(strings = {"PUBLISH_ANSWER", "summarize ", "summ\u0430rize", "publish_answer"})
  @Order(11)
  void an_allow_decision_for_an_unlisted_action_is_refused(String action) {
    refusedUnchanged(
        "policy_denied",
        () ->
            post(
                WS,
                "/policy-decisions",
                Payloads.AGENT,
                Payloads.decision("pd-unlisted", action, "allow")));
  }

  @Test
  @Order(12)
  void a_high_risk_allow_is_refused_and_an_allow_admits_one_action() {
    ObjectNode high = Payloads.decision("pd-high", "summarize", "allow");
    high.put("risk_class", "high");
    refusedUnchanged("review_required", () -> post(WS, "/policy-decisions", Payloads.AGENT, high));
    // Positive control: the same action at medium risk is allowed, once.
    ok(
        post(
            WS,
            "/policy-decisions",
            Payloads.AGENT,
            Payloads.decision("pd-sum", "summarize", "allow")));
    ok(appendAgentEvent("event-sum-1", "agent.acted", "summarize", "pd-sum"));
    refusedUnchanged(
        "missing_policy_decision",
        () -> appendAgentEvent("event-sum-2", "agent.acted", "summarize", "pd-sum"));
  }

  @Test
  @Order(13)
  void an_event_id_cannot_repeat_and_the_hosts_own_ids_are_the_hosts() {
    refusedUnchanged(
        "invalid_transition",
        () -> appendAgentEvent("event-sum-1", "agent.acted", "summarize", "pd-sum"));
    refusedUnchanged(
        "unauthorized_actor",
        () -> appendAgentEvent(WS + ".event.2", "agent.acted", "summarize", "pd-sum"));
  }

  @ParameterizedTest(name = "''{0}'' imitates a host-written event type")
  @ValueSource(
      strings = {
        "Review.Recorded",
        "review.recorded\u200B",
        "r\u0435view.recorded",
        "review.recorded "
      })
  @Order(14)
  void the_agent_cannot_forge_a_look_alike_of_a_host_written_event(String type) {
    refusedUnchanged(
        "unauthorized_actor", () -> appendAgentEvent("event-look-alike", type, "recorded", null));
  }
}
