package dev.jarvis.host.reference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.WorkSessionGovernance;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue #22, items 5 to 7, over HTTP against the reference host: no existence oracle (with tokens
 * bound to Actors, the outsider holding its own), Requests and Contributions bound to their Actors,
 * per-principal limits. Each attack is refused and changes nothing; each has a positive control.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class ActorsBoundOverHttpTest {

  private static final String WS = Payloads.WS;
  private static final String NOWHERE = "ws-protocol-nowhere";
  private static final String OUTSIDER = TestHost.OUTSIDER;
  private static final String OUTSIDER_WORKER = "worker-human-999";

  private static void ok(Answer a) {
    assertTrue(a.status() < 300, a.text());
  }

  /** The answer without its {@code trace_id}, which differs per call by design. */
  private static List<Object> untraced(Answer a) {
    ObjectNode body = ((ObjectNode) a.json()).deepCopy();
    body.remove("trace_id");
    return List.of(a.status(), body);
  }

  /** Everything a refusal must leave as it was in a WorkSession. */
  private static List<Object> state(TestHost t, String ws) {
    List<Object> state = new ArrayList<>();
    state.add(
        t.host.host().config().stores().sessions().find(ws).map(s -> s.snapshot().toString()));
    for (RecordKind kind : RecordKind.values()) {
      state.add(
          t.host.host().config().stores().records().inSession(kind, ws).stream()
              .map(StoredRecord::body)
              .map(Object::toString)
              .toList());
    }
    return state;
  }

  private static ChainCursor cursor(TestHost t, String ws) {
    return t.host.host().config().stores().sessions().find(ws).orElseThrow().cursor();
  }

  private static Answer post(TestHost t, String ws, String path, String actor, ObjectNode body) {
    return t.send(
        "POST", "/work-sessions/" + ws + path, t.scoped(actor, cursor(t, ws)), body.toString());
  }

  /** A WorkSession of {@code id} created by {@code creator} with {@code humanWorker}. */
  private static Answer create(
      TestHost t, String id, String creator, String humanWorker, Map<String, String> headers) {
    ObjectNode ws = Payloads.workSession(id);
    ws.put("created_by_actor_id", creator);
    ws.put("human_worker_id", humanWorker);
    headers.put("Jarvis-Expected-WorkSession-Revision", "0");
    headers.put("Jarvis-Previous-Event-Hash", "hash:protocol-genesis");
    return t.send("POST", "/work-sessions", headers, ws.toString());
  }

  private static Answer create(TestHost t, String id, String creator, String humanWorker) {
    return create(t, id, creator, humanWorker, t.mutation(creator));
  }

  @Nested
  class No_existence_oracle {

    /** A host with tokens bound to Actors and the outsider registered with a Worker of its own. */
    private TestHost host() {
      // The sample Policy governs the outsider's own WorkSessions too (#37): its owner is another.
      TestHost t =
          TestHost.withCredentials(
              b ->
                  b.governance(
                      WorkSessionGovernance.NONE.assignPolicy(Payloads.POLICY, OUTSIDER_WORKER)));
      t.register(Payloads.worker(OUTSIDER_WORKER, "human"));
      t.registerActor(Payloads.actor(OUTSIDER, OUTSIDER_WORKER, "human", true));
      return t;
    }

    /** {@code op} on WorkSession {@code ws} by the outsider, with its own valid token. */
    private Answer byOutsider(TestHost t, String op, String ws) {
      // One cursor for both WorkSessions: the refusal comes before any cursor is compared.
      ChainCursor at = cursor(t, WS);
      Map<String, String> scoped = t.scoped(OUTSIDER, at);
      return switch (op) {
        case "getWorkSession" -> t.get("/work-sessions/" + ws, OUTSIDER);
        case "exportEvidenceManifest" -> t.get("/work-sessions/" + ws + "/export", OUTSIDER);
        case "appendJarvisEvent" -> {
          ObjectNode draft = Payloads.event("event-x", "note.recorded", OUTSIDER);
          draft.put("work_session_id", ws);
          yield t.send(
              "POST",
              "/work-sessions/" + ws + "/events",
              scoped,
              EventChain.next(at, draft).toString());
        }
        case "recordReview" -> {
          ObjectNode review = Payloads.review("review-x", "req-x", "deny");
          review.put("work_session_id", ws);
          review.put("reviewer_actor_id", OUTSIDER);
          review.put("reviewer_worker_id", OUTSIDER_WORKER);
          yield t.send("POST", "/work-sessions/" + ws + "/reviews", scoped, review.toString());
        }
        case "recordContribution" -> {
          ObjectNode c = Payloads.contribution("contribution-x", "event-x");
          c.put("work_session_id", ws);
          yield t.send("POST", "/work-sessions/" + ws + "/contributions", scoped, c.toString());
        }
        case "submitOutcomeReport" -> {
          ObjectNode report = Payloads.outcomeReport("outcome-x", "lr-x");
          report.put("work_session_id", ws);
          report.put("accepted_by_actor_id", OUTSIDER);
          yield t.send("POST", "/outcome-reports", t.mutation(OUTSIDER), report.toString());
        }
        default -> throw new IllegalArgumentException(op);
      };
    }

    @ParameterizedTest(name = "{0}: an existing and an unknown WorkSession answer alike")
    @ValueSource(
        strings = {
          "getWorkSession",
          "exportEvidenceManifest",
          "appendJarvisEvent",
          "recordReview",
          "recordContribution",
          "submitOutcomeReport"
        })
    void a_non_member_cannot_tell_an_existing_worksession_from_an_unknown_one(String op) {
      try (TestHost t = host()) {
        List<Object> before = state(t, WS);
        Answer existing = byOutsider(t, op, WS);
        Answer unknown = byOutsider(t, op, NOWHERE);
        assertEquals("unauthorized_actor", existing.errorId(), existing.text());
        assertEquals(untraced(unknown), untraced(existing));
        assertFalse(existing.text().contains(WS), "the answer names no WorkSession id");
        assertEquals(before, state(t, WS));
      }
    }

    @Test
    void a_member_reads_the_worksession_it_belongs_to() {
      try (TestHost t = host()) {
        assertEquals(200, t.get("/work-sessions/" + WS, Payloads.HUMAN).status());
        assertEquals(200, t.get("/work-sessions/" + WS, Payloads.AGENT).status());
      }
    }

    @Test
    void a_token_that_may_not_act_as_a_member_learns_nothing_either() {
      try (TestHost t = host()) {
        Map<String, String> existing = t.read(Payloads.HUMAN);
        existing.put("Authorization", "Bearer " + t.tokenOf(OUTSIDER));
        Map<String, String> unknown = new java.util.LinkedHashMap<>(existing);
        Answer a = t.send("GET", "/work-sessions/" + WS, existing, null);
        Answer b = t.send("GET", "/work-sessions/" + NOWHERE, unknown, null);
        assertEquals("unauthorized_actor", a.errorId(), a.text());
        assertEquals(untraced(b), untraced(a));
      }
    }

    @Test
    void a_taken_id_tells_the_outsider_no_more_than_it_tells_a_member() {
      try (TestHost t = host()) {
        List<Object> before = state(t, WS);
        Answer outsider = create(t, WS, OUTSIDER, OUTSIDER_WORKER);
        Answer member = create(t, WS, Payloads.HUMAN, Payloads.HUMAN_WORKER);
        assertEquals("stale_work_session_revision", outsider.errorId(), outsider.text());
        assertEquals(untraced(member), untraced(outsider));
        assertFalse(outsider.json().path("reason").asText().contains("revision"));
        assertEquals(before, state(t, WS));
        // Positive control: the outsider creates a WorkSession of a free id.
        assertEquals(201, create(t, "ws-protocol-free", OUTSIDER, OUTSIDER_WORKER).status());
      }
    }

    @Test
    void a_members_idempotent_retry_of_createworksession_replays_its_first_answer() {
      try (TestHost t = host()) {
        Map<String, String> headers = t.mutation(Payloads.HUMAN);
        Answer first =
            create(t, "ws-protocol-retry", Payloads.HUMAN, Payloads.HUMAN_WORKER, headers);
        Answer retry =
            create(t, "ws-protocol-retry", Payloads.HUMAN, Payloads.HUMAN_WORKER, headers);
        assertEquals(201, first.status(), first.text());
        assertEquals(201, retry.status(), retry.text());
        assertEquals(first.json(), retry.json());
      }
    }
  }

  @Nested
  class Requests_bound_to_their_actors {

    private TestHost hostWithDecision() {
      TestHost t = TestHost.withSession();
      ObjectNode d = Payloads.decision("pd-1", "fetch_external_source", "review_required");
      d.put("request_id", "req-1");
      ok(t.scopedPost("/policy-decisions", Payloads.AGENT, d));
      return t;
    }

    private void refusedUnchanged(String errorId, String field, ObjectNode request) {
      try (TestHost t = hostWithDecision()) {
        List<Object> before = state(t, WS);
        Answer a = t.scopedPost("/requests", Payloads.AGENT, request);
        assertEquals(errorId, a.errorId(), a.text());
        assertEquals(field, a.json().path("field").asText());
        assertEquals(before, state(t, WS));
      }
    }

    @Test
    void a_request_asked_in_the_name_of_the_humans_worker_is_refused() {
      ObjectNode forged = Payloads.request("req-1", "pd-1", "fetch_external_source");
      forged.put("requester_worker_id", Payloads.HUMAN_WORKER);
      refusedUnchanged("actor_body_id_mismatch", "/requester_worker_id", forged);
    }

    @ParameterizedTest(name = "a Request aimed at {0} is refused")
    @ValueSource(strings = {Payloads.AGENT_WORKER, OUTSIDER_WORKER})
    void a_request_aimed_at_anyone_but_the_worksessions_human_worker_is_refused(String target) {
      ObjectNode aimed = Payloads.request("req-1", "pd-1", "fetch_external_source");
      aimed.put("target_human_worker_id", target);
      refusedUnchanged("unknown_state", "/target_human_worker_id", aimed);
    }

    @Test
    void the_agents_request_to_the_worksessions_human_is_accepted() {
      try (TestHost t = hostWithDecision()) {
        assertEquals(
            201,
            t.scopedPost(
                    "/requests",
                    Payloads.AGENT,
                    Payloads.request("req-1", "pd-1", "fetch_external_source"))
                .status());
      }
    }
  }

  @Nested
  class Contributions_bound_to_their_actors {

    private static final String SECOND_HUMAN = "actor-human-001b";

    private static ObjectNode contribution(String type, String... workerActorRole) {
      ObjectNode c = Payloads.contribution("contribution-1", WS + ".event.1");
      c.put("contributor_type", type);
      var refs = c.putArray("contributor_refs");
      for (int i = 0; i < workerActorRole.length; i += 3) {
        ObjectNode ref = refs.addObject();
        ref.put("worker_id", workerActorRole[i]);
        ref.put("actor_id", workerActorRole[i + 1]);
        ref.put("contribution_role", workerActorRole[i + 2]);
      }
      return c;
    }

    private void refusedUnchanged(String errorId, String field, ObjectNode contribution) {
      try (TestHost t = TestHost.withSession()) {
        t.registerActor(Payloads.actor(SECOND_HUMAN, Payloads.HUMAN_WORKER, "human", true));
        List<Object> before = state(t, WS);
        Answer a = t.scopedPost("/contributions", Payloads.HUMAN, contribution);
        assertEquals(errorId, a.errorId(), a.text());
        assertEquals(field, a.json().path("field").asText(), a.text());
        assertEquals(before, state(t, WS));
      }
    }

    @Test
    void a_human_contribution_crediting_only_the_agent_is_refused() {
      refusedUnchanged(
          "invalid_contributor_refs",
          "/contributor_refs/0",
          contribution("human", Payloads.AGENT_WORKER, Payloads.AGENT, "agent"));
    }

    @Test
    void an_agent_credited_in_the_human_role_is_refused() {
      refusedUnchanged(
          "invalid_contributor_refs",
          "/contributor_refs/0/contribution_role",
          contribution("agent", Payloads.AGENT_WORKER, Payloads.AGENT, "human"));
    }

    @Test
    void a_shared_contribution_of_one_workers_two_actors_is_refused() {
      refusedUnchanged(
          "shared_contribution_without_individual_refs",
          "/contributor_refs",
          contribution(
              "shared",
              Payloads.HUMAN_WORKER,
              Payloads.HUMAN,
              "human",
              Payloads.HUMAN_WORKER,
              SECOND_HUMAN,
              "human"));
    }

    @Test
    void a_shared_contribution_of_the_human_and_the_agent_in_their_own_roles_is_accepted() {
      try (TestHost t = TestHost.withSession()) {
        ObjectNode shared =
            contribution(
                "shared",
                Payloads.HUMAN_WORKER,
                Payloads.HUMAN,
                "human",
                Payloads.AGENT_WORKER,
                Payloads.AGENT,
                "agent");
        assertEquals(201, t.scopedPost("/contributions", Payloads.HUMAN, shared).status());
      }
    }
  }

  @Nested
  class Per_principal_limits {

    private static void complete(TestHost t, String ws) {
      ObjectNode done = Payloads.event("event-done", "work_session.completed", Payloads.HUMAN);
      done.put("work_session_id", ws);
      done.put("timestamp", dev.jarvis.core.headers.RequestTimestamp.format(t.clock.instant()));
      ChainCursor at = cursor(t, ws);
      ok(
          t.send(
              "POST",
              "/work-sessions/" + ws + "/events",
              t.scoped(Payloads.HUMAN, at),
              EventChain.next(at, done).toString()));
    }

    @Test
    void an_actor_past_its_open_worksessions_is_refused_until_one_ends() {
      try (TestHost t = TestHost.started(b -> b.openWorkSessionsPerActor(2))) {
        ok(t.createSession("ws-a"));
        ok(t.createSession("ws-b"));
        Answer third = t.createSession("ws-c");
        assertEquals("unauthorized_actor", third.errorId(), third.text());
        assertTrue(third.json().path("reason").asText().contains("openWorkSessionsPerActor"));
        assertTrue(third.json().path("remediation").asText().contains("openWorkSessionsPerActor"));
        complete(t, "ws-a");
        assertEquals(201, t.createSession("ws-c").status());
      }
    }

    /** The agent's review_required decision in {@code ws}, naming its Request. */
    private static void decide(TestHost t, String ws, String decision, String request) {
      ObjectNode d = Payloads.decision(decision, "fetch_external_source", "review_required");
      d.put("work_session_id", ws);
      d.put("request_id", request);
      ok(post(t, ws, "/policy-decisions", Payloads.AGENT, d));
    }

    /** The agent's Request of that decision in {@code ws}, to the WorkSession's human. */
    private static Answer request(TestHost t, String ws, String decision, String request) {
      ObjectNode r = Payloads.request(request, decision, "fetch_external_source");
      r.put("work_session_id", ws);
      return post(t, ws, "/requests", Payloads.AGENT, r);
    }

    @Test
    void requests_aimed_at_one_human_from_many_worksessions_stop_at_the_limit() {
      try (TestHost t = TestHost.started(b -> b.pendingRequestsPerTargetHuman(2))) {
        for (String ws : List.of("ws-a", "ws-b", "ws-c")) {
          ok(t.createSession(ws));
        }
        decide(t, "ws-a", "pd-a", "req-a");
        ok(request(t, "ws-a", "pd-a", "req-a"));
        decide(t, "ws-b", "pd-b", "req-b");
        ok(request(t, "ws-b", "pd-b", "req-b"));
        decide(t, "ws-c", "pd-c", "req-c");
        List<Object> before = state(t, "ws-c");
        Answer third = request(t, "ws-c", "pd-c", "req-c");
        assertEquals("request_livelock", third.errorId(), third.text());
        assertEquals("/target_human_worker_id", third.json().path("field").asText());
        assertTrue(third.json().path("reason").asText().contains("pendingRequestsPerTargetHuman"));
        assertEquals(before, state(t, "ws-c"));
        // Positive control: the human denies one, and the next Request is accepted.
        ObjectNode review = Payloads.review("review-a", "req-a", "deny");
        review.put("work_session_id", "ws-a");
        ok(post(t, "ws-a", "/reviews", Payloads.HUMAN, review));
        assertEquals(201, request(t, "ws-c", "pd-c", "req-c").status());
      }
    }
  }
}
