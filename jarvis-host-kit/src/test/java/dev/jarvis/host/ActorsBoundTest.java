package dev.jarvis.host;

import static dev.jarvis.host.KitHost.ADMIN;
import static dev.jarvis.host.KitHost.AGENT;
import static dev.jarvis.host.KitHost.AGENT_WORKER;
import static dev.jarvis.host.KitHost.HUMAN;
import static dev.jarvis.host.KitHost.HUMAN_WORKER;
import static dev.jarvis.host.KitHost.OTHER_WORKER;
import static dev.jarvis.host.KitHost.OUTSIDER;
import static dev.jarvis.host.KitHost.SECOND_HUMAN;
import static dev.jarvis.host.KitHost.WS;
import static dev.jarvis.host.KitHost.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.samples.SampleRecords;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue #22, items 5 to 7, in process (no HTTP): no existence oracle, Requests and Contributions
 * bound to their Actors, per-principal limits. Each attack is refused and changes nothing; each has
 * a positive control that the same call, made rightly, is accepted.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class ActorsBoundTest {

  static final String OUTSIDER_AGENT_WORKER = "worker-agent-2";
  static final String OUTSIDER_AGENT = "actor-agent-2";
  static final String NOWHERE = "ws-nowhere";

  private static void refused(String errorId, KitHost.Answer a) {
    assertEquals(errorId, a.errorId(), a.body().toString());
  }

  /** The answer without its {@code trace_id}, which differs per call by design. */
  private static JsonNode untraced(KitHost.Answer a) {
    ObjectNode body = ((ObjectNode) a.body()).deepCopy();
    body.remove("trace_id");
    return JarvisJson.mapper().createObjectNode().put("status", a.status()).set("body", body);
  }

  /** Registers an agent Worker and Actor outside the kit's WorkSessions. */
  private static void registerOutsiderAgent(KitHost kit) {
    ok(
        kit.send(
            "registerWorker",
            Map.of("worker_id", OUTSIDER_AGENT_WORKER),
            ADMIN,
            SampleRecords.worker(OUTSIDER_AGENT_WORKER, "agent"),
            ""));
    ok(
        kit.send(
            "registerActor",
            Map.of("actor_id", OUTSIDER_AGENT),
            ADMIN,
            SampleRecords.actor(
                OUTSIDER_AGENT, OUTSIDER_AGENT_WORKER, "agent", "2026-06-12T17:00:00Z"),
            ""));
  }

  @Nested
  class No_existence_oracle {

    /** {@code op} on WorkSession {@code ws} by an Actor of no Worker of it. */
    private KitHost.Answer byOutsider(KitHost kit, String op, String ws) {
      ChainCursor at =
          kit.host.config().stores().sessions().find(ws).map(StoredSession::cursor).orElse(null);
      ChainCursor cursor = at == null ? ChainCursor.GENESIS : at;
      return switch (op) {
        case "getWorkSession", "exportEvidenceManifest" -> kit.read(op, ws, OUTSIDER);
        case "appendJarvisEvent" ->
            kit.scoped(
                op,
                ws,
                OUTSIDER,
                EventChain.next(
                    cursor,
                    SampleRecords.eventDraft("evt-x", ws, OUTSIDER, "note.recorded", kit.now())));
        case "recordContribution" ->
            kit.scoped(
                op,
                ws,
                OUTSIDER,
                SampleRecords.contribution(
                    "contribution-x", ws, OTHER_WORKER, OUTSIDER, ws + ".event.1", kit.now()));
        case "recordReview" ->
            kit.scoped(
                op,
                ws,
                OUTSIDER,
                kit.review(ws, "review-x", OUTSIDER, OTHER_WORKER, "request:req-x", "deny"));
        case "recordTakeover" ->
            kit.scoped(
                op, ws, OUTSIDER, kit.takeover(ws, "takeover-x", OUTSIDER, "scope:x", "locked", 1));
        case "recordPolicyDecision" ->
            kit.scoped(
                op,
                ws,
                OUTSIDER_AGENT,
                SampleRecords.policyDecision("pd-x", ws, OUTSIDER_AGENT, kit.now()));
        case "createRequest" -> {
          ObjectNode request =
              kit.request(ws, "req-x", "pd-x", "fetch_external_source", Duration.ofMinutes(30));
          request.put("requester_actor_id", OUTSIDER_AGENT);
          request.put("requester_worker_id", OUTSIDER_AGENT_WORKER);
          yield kit.scoped(op, ws, OUTSIDER_AGENT, request);
        }
        case "submitOutcomeReport" ->
            kit.send(op, Map.of(), OUTSIDER, outcomeReport(ws, OUTSIDER), "");
        default -> throw new IllegalArgumentException(op);
      };
    }

    private ObjectNode outcomeReport(String ws, String acceptedBy) {
      return KitHost.json(
          """
          {"id": "outcome-x", "work_session_id": "%s", "source_ref": "source:customer",
           "reporter_ref": "reporter:customer-1", "accepted_by_actor_id": "%s",
           "outcome": "The answer held up.", "learning_record_refs": ["lr-x"],
           "received_at": "2026-06-12T18:30:00Z"}
          """
              .formatted(ws, acceptedBy));
    }

    @ParameterizedTest(name = "{0}: an existing and an unknown WorkSession answer alike")
    @ValueSource(
        strings = {
          "getWorkSession",
          "exportEvidenceManifest",
          "appendJarvisEvent",
          "recordContribution",
          "recordReview",
          "recordTakeover",
          "recordPolicyDecision",
          "createRequest",
          "submitOutcomeReport"
        })
    void a_non_member_cannot_tell_an_existing_worksession_from_an_unknown_one(String op) {
      KitHost kit = KitHost.withSession();
      registerOutsiderAgent(kit);
      Object before = kit.state(WS);
      KitHost.Answer existing = byOutsider(kit, op, WS);
      KitHost.Answer unknown = byOutsider(kit, op, NOWHERE);
      refused("unauthorized_actor", existing);
      assertEquals(untraced(unknown), untraced(existing));
      assertFalse(existing.body().toString().contains(WS), "the answer names no WorkSession id");
      assertEquals(before, kit.state(WS));
      assertTrue(kit.host.config().stores().sessions().find(NOWHERE).isEmpty());
    }

    @Test
    void a_member_reads_the_worksession_it_belongs_to() {
      KitHost kit = KitHost.withSession();
      assertEquals(200, kit.read("getWorkSession", WS, HUMAN).status());
      assertEquals(200, kit.read("getWorkSession", WS, AGENT).status());
    }

    @Test
    void a_credential_that_may_not_act_as_a_member_learns_nothing_either() {
      String token = "token-of-the-outsider";
      HostAuth auth =
          Credentials.of(
              List.of(
                  new Credentials.Credential(
                      java.util.HexFormat.of().parseHex(Credentials.sha256Hex(token)),
                      Set.of(OUTSIDER),
                      false),
                  new Credentials.Credential(
                      java.util.HexFormat.of().parseHex(Credentials.sha256Hex("admin-token")),
                      Set.of(ADMIN, HUMAN),
                      true)));
      KitHost kit = new KitHost(auth, "Bearer admin-token");
      assertEquals(
          201,
          kit.send(
                  "createWorkSession",
                  Map.of(),
                  HUMAN,
                  SampleRecords.workSession(WS, HUMAN, HUMAN_WORKER, AGENT_WORKER, kit.now()),
                  "Bearer admin-token")
              .status());
      KitHost.Answer existing =
          kit.send("getWorkSession", Map.of("work_session_id", WS), HUMAN, null, "Bearer " + token);
      KitHost.Answer unknown =
          kit.send(
              "getWorkSession", Map.of("work_session_id", NOWHERE), HUMAN, null, "Bearer " + token);
      refused("unauthorized_actor", existing);
      assertEquals(untraced(unknown), untraced(existing));
    }

    /** A createWorkSession of {@code id} whose Workers make {@code creator} a member. */
    private KitHost.Answer create(KitHost kit, String id, String creator, String humanWorker) {
      return kit.send(
          "createWorkSession",
          Map.of(),
          creator,
          SampleRecords.workSession(id, creator, humanWorker, AGENT_WORKER, kit.now()),
          "");
    }

    @Test
    void a_taken_id_tells_no_caller_the_worksessions_revision_and_tells_all_callers_the_same() {
      KitHost kit = KitHost.withSession();
      ok(kit.append(WS, HUMAN, "evt-1", "note.recorded", JarvisJson.mapper().createObjectNode()));
      Object before = kit.state(WS);
      KitHost.Answer outsider = create(kit, WS, OUTSIDER, OTHER_WORKER);
      KitHost.Answer member = create(kit, WS, SECOND_HUMAN, HUMAN_WORKER);
      refused("stale_work_session_revision", outsider);
      assertEquals(untraced(member), untraced(outsider));
      assertFalse(outsider.body().path("reason").asText().contains("revision"));
      assertEquals(before, kit.state(WS));
      // Positive control: the same outsider creates a WorkSession of a free id.
      assertEquals(201, create(kit, "ws-free", OUTSIDER, OTHER_WORKER).status());
    }

    @Test
    void an_outsider_who_could_not_create_the_worksession_is_refused_before_the_id_is_looked_at() {
      KitHost kit = KitHost.withSession();
      // The body names the kit's Workers, of which the outsider is no Actor.
      KitHost.Answer taken = create(kit, WS, OUTSIDER, HUMAN_WORKER);
      KitHost.Answer free = create(kit, "ws-free", OUTSIDER, HUMAN_WORKER);
      refused("unauthorized_actor", taken);
      assertEquals(untraced(free), untraced(taken));
    }

    @Test
    void a_members_idempotent_retry_of_createworksession_still_replays_its_first_answer() {
      KitHost kit = new KitHost();
      Supplier<StoredResponse> request =
          kit.prepare(
              "createWorkSession",
              Map.of(),
              HUMAN,
              SampleRecords.workSession(WS, HUMAN, HUMAN_WORKER, AGENT_WORKER, kit.now()),
              "");
      StoredResponse first = request.get();
      StoredResponse retry = request.get();
      assertEquals(201, first.status());
      assertEquals(201, retry.status());
      assertEquals(
          KitHost.answerOf(first).body(),
          KitHost.answerOf(retry).body(),
          "the stored answer, not the taken-id refusal");
    }
  }

  @Nested
  class Requests_bound_to_their_actors {

    private KitHost kitWithDecision() {
      KitHost kit = KitHost.withSession();
      kit.decide(WS, "pd-1", "fetch_external_source", "review_required", "req-1");
      return kit;
    }

    private ObjectNode request(KitHost kit) {
      return kit.request(WS, "req-1", "pd-1", "fetch_external_source", Duration.ofMinutes(30));
    }

    @Test
    void a_request_asked_in_the_name_of_another_worker_is_refused() {
      KitHost kit = kitWithDecision();
      ObjectNode forged = request(kit);
      forged.put("requester_worker_id", HUMAN_WORKER);
      Object before = kit.state(WS);
      KitHost.Answer a = kit.scoped("createRequest", WS, AGENT, forged);
      refused("actor_body_id_mismatch", a);
      assertEquals("/requester_worker_id", a.body().path("field").asText());
      assertEquals(before, kit.state(WS));
    }

    @ParameterizedTest(name = "a Request aimed at {0} is refused")
    @ValueSource(strings = {AGENT_WORKER, OTHER_WORKER, "worker-nowhere"})
    void a_request_aimed_at_anyone_but_the_worksessions_human_worker_is_refused(String target) {
      KitHost kit = kitWithDecision();
      ObjectNode aimed = request(kit);
      aimed.put("target_human_worker_id", target);
      Object before = kit.state(WS);
      KitHost.Answer a = kit.scoped("createRequest", WS, AGENT, aimed);
      refused("unknown_state", a);
      assertEquals("/target_human_worker_id", a.body().path("field").asText());
      assertEquals(before, kit.state(WS));
    }

    @Test
    void a_request_of_the_callers_worker_to_the_worksessions_human_is_accepted() {
      KitHost kit = kitWithDecision();
      assertEquals(201, kit.scoped("createRequest", WS, AGENT, request(kit)).status());
    }
  }

  @Nested
  class Contributions_bound_to_their_actors {

    private static ObjectNode ref(String worker, String actor, String role) {
      ObjectNode ref = JarvisJson.mapper().createObjectNode();
      ref.put("worker_id", worker);
      ref.put("actor_id", actor);
      ref.put("contribution_role", role);
      return ref;
    }

    private static ObjectNode contribution(KitHost kit, String type, ObjectNode... refs) {
      ObjectNode c =
          SampleRecords.contribution(
              "contribution-1", WS, AGENT_WORKER, AGENT, WS + ".event.1", kit.now());
      c.put("contributor_type", type);
      c.putArray("contributor_refs").addAll(List.of(refs));
      return c;
    }

    /** An agent Actor of the WorkSession's agent Worker whose scope also lists {@code human}. */
    private static void registerAgentScopedAsHuman(KitHost kit) {
      ObjectNode actor =
          SampleRecords.actor("actor-agent-1b", AGENT_WORKER, "agent", "2026-06-12T17:00:00Z");
      ((ArrayNode) actor.path("contribution_scope").path("contribution_roles")).add("human");
      ok(kit.send("registerActor", Map.of("actor_id", "actor-agent-1b"), ADMIN, actor, ""));
    }

    private void refusedUnchanged(String errorId, String field, KitHost kit, ObjectNode c) {
      Object before = kit.state(WS);
      KitHost.Answer a = kit.scoped("recordContribution", WS, HUMAN, c);
      refused(errorId, a);
      assertEquals(field, a.body().path("field").asText(), a.body().toString());
      assertEquals(before, kit.state(WS));
    }

    @Test
    void a_human_contribution_crediting_only_the_agent_is_refused() {
      KitHost kit = KitHost.withSession();
      refusedUnchanged(
          "invalid_contributor_refs",
          "/contributor_refs/0",
          kit,
          contribution(kit, "human", ref(AGENT_WORKER, AGENT, "agent")));
    }

    @Test
    void an_agent_credited_in_a_role_outside_its_contribution_scope_is_refused() {
      KitHost kit = KitHost.withSession();
      refusedUnchanged(
          "invalid_contributor_refs",
          "/contributor_refs/0/contribution_role",
          kit,
          contribution(kit, "agent", ref(AGENT_WORKER, AGENT, "human")));
    }

    @Test
    void an_agent_credited_as_human_is_refused_even_where_its_scope_lists_human() {
      KitHost kit = KitHost.withSession();
      registerAgentScopedAsHuman(kit);
      refusedUnchanged(
          "invalid_contributor_refs",
          "/contributor_refs/0/contribution_role",
          kit,
          contribution(kit, "agent", ref(AGENT_WORKER, "actor-agent-1b", "human")));
    }

    @Test
    void a_contribution_crediting_a_worker_outside_the_worksession_is_refused() {
      KitHost kit = KitHost.withSession();
      refusedUnchanged(
          "invalid_contributor_refs",
          "/contributor_refs/0",
          kit,
          contribution(kit, "human", ref(OTHER_WORKER, OUTSIDER, "human")));
    }

    @Test
    void a_shared_contribution_of_two_actors_of_one_worker_is_refused() {
      KitHost kit = KitHost.withSession();
      refusedUnchanged(
          "shared_contribution_without_individual_refs",
          "/contributor_refs",
          kit,
          contribution(
              kit,
              "shared",
              ref(HUMAN_WORKER, HUMAN, "human"),
              ref(HUMAN_WORKER, SECOND_HUMAN, "human")));
    }

    @ParameterizedTest(name = "{0} is accepted")
    @CsvSource({
      "a human contribution of the human, human",
      "an agent contribution of the agent, agent",
      "a shared contribution of the human and the agent, shared"
    })
    void a_contribution_that_credits_each_actor_in_its_own_role_is_accepted(
        String what, String type) {
      KitHost kit = KitHost.withSession();
      ObjectNode human = ref(HUMAN_WORKER, HUMAN, "human");
      ObjectNode agent = ref(AGENT_WORKER, AGENT, "agent");
      ObjectNode c =
          switch (type) {
            case "human" -> contribution(kit, type, human);
            case "agent" -> contribution(kit, type, agent);
            default -> contribution(kit, type, human, agent);
          };
      assertEquals(201, kit.scoped("recordContribution", WS, HUMAN, c).status(), what);
    }
  }

  @Nested
  class Per_principal_limits {

    @Test
    void an_actor_past_its_open_worksessions_is_refused_until_one_ends() {
      KitHost kit = new KitHost(HostAuth.anyCaller(), "", b -> b.openWorkSessionsPerActor(2));
      ok(kit.createSession("ws-a"));
      ok(kit.createSession("ws-b"));
      KitHost.Answer third = kit.createSession("ws-c");
      refused("unauthorized_actor", third);
      assertTrue(
          third.body().path("reason").asText().contains("openWorkSessionsPerActor"),
          third.body().toString());
      assertTrue(kit.host.config().stores().sessions().find("ws-c").isEmpty());
      // Another Actor has a limit of its own.
      ok(
          kit.send(
              "createWorkSession",
              Map.of(),
              SECOND_HUMAN,
              SampleRecords.workSession(
                  "ws-d", SECOND_HUMAN, HUMAN_WORKER, AGENT_WORKER, kit.now()),
              ""));
      // Positive control: once one ends, the Actor may open another.
      ok(kit.complete("ws-a"));
      assertEquals(201, kit.createSession("ws-c").status());
    }

    @Test
    void concurrent_creates_at_the_limit_open_exactly_the_limit() throws Exception {
      KitHost kit = new KitHost(HostAuth.anyCaller(), "", b -> b.openWorkSessionsPerActor(3));
      int writers = 8;
      List<Supplier<StoredResponse>> creates = new ArrayList<>();
      for (int i = 0; i < writers; i++) {
        creates.add(
            kit.prepare(
                "createWorkSession",
                Map.of(),
                HUMAN,
                SampleRecords.workSession(
                    "ws-race-" + i, HUMAN, HUMAN_WORKER, AGENT_WORKER, kit.now()),
                ""));
      }
      CyclicBarrier start = new CyclicBarrier(writers);
      ExecutorService pool = Executors.newFixedThreadPool(writers);
      try {
        List<Callable<Integer>> tasks = new ArrayList<>();
        for (Supplier<StoredResponse> create : creates) {
          tasks.add(
              () -> {
                start.await();
                return create.get().status();
              });
        }
        int created = 0;
        for (Future<Integer> status : pool.invokeAll(tasks)) {
          created += status.get() == 201 ? 1 : 0;
        }
        assertEquals(3, created);
      } finally {
        pool.shutdownNow();
      }
    }

    private KitHost kitWithSessions(int limit, String... sessions) {
      KitHost kit =
          new KitHost(HostAuth.anyCaller(), "", b -> b.pendingRequestsPerTargetHuman(limit));
      for (String ws : sessions) {
        ok(kit.createSession(ws));
      }
      return kit;
    }

    @Test
    void requests_aimed_at_one_human_from_many_worksessions_stop_at_the_limit() {
      KitHost kit = kitWithSessions(2, "ws-a", "ws-b", "ws-c");
      kit.pendingFetch("ws-a", "pd-a", "req-a");
      kit.pendingFetch("ws-b", "pd-b", "req-b");
      kit.decide("ws-c", "pd-c", "fetch_external_source", "review_required", "req-c");
      Object before = kit.state("ws-c");
      KitHost.Answer third =
          kit.scoped(
              "createRequest",
              "ws-c",
              AGENT,
              kit.request(
                  "ws-c", "req-c", "pd-c", "fetch_external_source", Duration.ofMinutes(30)));
      refused("request_livelock", third);
      assertEquals("/target_human_worker_id", third.body().path("field").asText());
      assertTrue(
          third.body().path("reason").asText().contains("pendingRequestsPerTargetHuman"),
          third.body().toString());
      assertEquals(before, kit.state("ws-c"));
      // Positive control: once the human resolves one, the next Request is accepted.
      ok(
          kit.scoped(
              "recordReview",
              "ws-a",
              HUMAN,
              kit.review("ws-a", "rev-a", HUMAN, HUMAN_WORKER, "request:req-a", "deny")));
      assertEquals(
          201,
          kit.scoped(
                  "createRequest",
                  "ws-c",
                  AGENT,
                  kit.request(
                      "ws-c", "req-c", "pd-c", "fetch_external_source", Duration.ofMinutes(30)))
              .status());
    }

    @Test
    void a_request_whose_expiry_is_due_no_longer_counts_against_its_human() {
      KitHost kit = kitWithSessions(1, "ws-a", "ws-b");
      kit.pendingFetch("ws-a", "pd-a", "req-a");
      kit.clock.advance(Duration.ofMinutes(31));
      kit.decide("ws-b", "pd-b", "fetch_external_source", "review_required", "req-b");
      assertEquals(
          201,
          kit.scoped(
                  "createRequest",
                  "ws-b",
                  AGENT,
                  kit.request(
                      "ws-b", "req-b", "pd-b", "fetch_external_source", Duration.ofMinutes(30)))
              .status());
    }

    @Test
    void a_request_superseding_an_open_one_takes_its_place_under_the_limit() {
      KitHost kit = kitWithSessions(1, "ws-a");
      kit.pendingFetch("ws-a", "pd-a", "req-a");
      kit.decide("ws-a", "pd-b", "fetch_external_source", "review_required", "req-b");
      ObjectNode duplicate =
          kit.request("ws-a", "req-b", "pd-b", "fetch_external_source", Duration.ofMinutes(30));
      duplicate.put("duplicate_of_request_id", "req-a");
      assertEquals(201, kit.scoped("createRequest", "ws-a", AGENT, duplicate).status());
    }

    @Test
    void the_defaults_are_documented_and_a_limit_below_one_is_refused() {
      assertEquals(
          PrincipalLimits.DEFAULTS, HostConfig.builder(HostAuth.anyCaller()).build().limits());
      assertEquals(100, PrincipalLimits.DEFAULTS.openWorkSessionsPerActor());
      assertEquals(50, PrincipalLimits.DEFAULTS.pendingRequestsPerTargetHuman());
      org.junit.jupiter.api.Assertions.assertThrows(
          IllegalArgumentException.class,
          () -> HostConfig.builder(HostAuth.anyCaller()).openWorkSessionsPerActor(0).build());
    }
  }
}
