package dev.jarvis.host;

import static dev.jarvis.host.KitHost.AGENT;
import static dev.jarvis.host.KitHost.HUMAN;
import static dev.jarvis.host.KitHost.HUMAN_WORKER;
import static dev.jarvis.host.KitHost.OTHER_WORKER;
import static dev.jarvis.host.KitHost.OTHER_WS;
import static dev.jarvis.host.KitHost.OUTSIDER;
import static dev.jarvis.host.KitHost.SECOND_HUMAN;
import static dev.jarvis.host.KitHost.WS;
import static dev.jarvis.host.KitHost.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.headers.RequestTimestamp;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The rules that hold the protocol to its purpose, each shown in process (no HTTP). */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class PurposeRulesTest {

  private static void refused(String errorId, KitHost.Answer a) {
    assertEquals(errorId, a.errorId(), a.body().toString());
  }

  @Nested
  class Credentials_bound_to_actors {

    private final String token = "s3cret-token-of-the-agent";
    private final HostAuth auth =
        Credentials.of(
            List.of(
                credential(token, Set.of(AGENT), false),
                credential("admin-token", Set.of(KitHost.ADMIN), true)));

    private static Credentials.Credential credential(
        String token, Set<String> actors, boolean admin) {
      return new Credentials.Credential(
          java.util.HexFormat.of().parseHex(Credentials.sha256Hex(token)), actors, admin);
    }

    @Test
    void a_credential_acting_as_an_actor_outside_its_set_is_refused_unauthorized_actor() {
      KitHost.Answer a =
          new KitHost(auth, "Bearer admin-token")
              .send(
                  "getWorkSession", Map.of("work_session_id", WS), HUMAN, null, "Bearer " + token);
      refused("unauthorized_actor", a);
    }

    @ParameterizedTest(name = "{0}")
    @org.junit.jupiter.params.provider.CsvSource({
      "a wrong token is refused 401 naming the credential, Bearer wrong-token, does not accept",
      "a missing token is refused 401 naming the credential, '', carries no Authorization"
    })
    void hostauth_failures_say_so(String what, String authorization, String reason) {
      KitHost.Answer a =
          new KitHost(auth, "Bearer admin-token")
              .send("getWorkSession", Map.of("work_session_id", WS), AGENT, null, authorization);
      assertEquals(401, a.status());
      refused("unauthorized_actor", a);
      assertEquals("Authorization", a.body().path("field").asText());
      org.junit.jupiter.api.Assertions.assertTrue(
          a.body().path("reason").asText().contains(reason), a.body().toString());
      assertEquals(
          dev.jarvis.core.error.ProtocolErrorCatalog.HOST_AUTH_REMEDIATION,
          a.body().path("remediation").asText());
    }

    @Test
    void naming_the_admin_actor_without_an_admin_credential_registers_nothing() {
      KitHost kit = new KitHost();
      KitHost.Answer a =
          kit.send(
              "registerActor",
              Map.of("actor_id", "actor-sneaky"),
              KitHost.ADMIN,
              dev.jarvis.samples.SampleRecords.actor(
                  "actor-sneaky", HUMAN_WORKER, "human", "2026-06-12T17:00:00Z"),
              "");
      assertEquals(200, a.status(), "the any-caller stub administers");
      ProtocolHost guarded =
          new ProtocolHost(
              HostConfig.builder(
                      authorization ->
                          java.util.Optional.of(Principal.of(Set.of(KitHost.ADMIN), false)))
                  .build());
      try {
        guarded.check(
            dev.jarvis.core.ProtocolOperations.byId("registerWorker"),
            h ->
                java.util.Optional.ofNullable(
                    Map.of(
                            "Jarvis-Protocol-Version",
                            "v0.1",
                            "Jarvis-Actor-Id",
                            KitHost.ADMIN,
                            "Jarvis-Idempotency-Key",
                            "k",
                            "Jarvis-Request-Timestamp",
                            RequestTimestamp.format(java.time.Instant.now()))
                        .get(h)),
            Map.of("worker_id", "w-x"),
            "",
            dev.jarvis.samples.SampleRecords.worker("w-x", "human")
                .toString()
                .getBytes(java.nio.charset.StandardCharsets.UTF_8));
        throw new AssertionError("a non-admin credential registered a Worker");
      } catch (ProtocolRefusal refusal) {
        assertEquals("unauthorized_actor", refusal.violation().errorId().getValue());
      }
    }

    @Test
    void a_token_is_held_only_as_its_hash_and_a_wrong_one_is_no_principal() {
      assertEquals(
          java.util.Optional.empty(), auth.principal(java.util.Optional.of("Bearer nope")));
      assertEquals(
          Set.of(AGENT),
          auth.principal(java.util.Optional.of("Bearer " + token)).orElseThrow().actorIds());
    }
  }

  @Nested
  class WorkSession_membership {

    @ParameterizedTest(name = "{0} by an outsider is refused")
    @ValueSource(strings = {"getWorkSession", "exportEvidenceManifest"})
    void a_read_by_an_actor_outside_the_worksession_is_refused(String op) {
      KitHost kit = KitHost.withSession();
      refused("unauthorized_actor", kit.read(op, WS, OUTSIDER));
    }

    @Test
    void a_mutation_by_an_actor_outside_the_worksession_is_refused_and_changes_nothing() {
      KitHost kit = KitHost.withSession();
      Object before = kit.state(WS);
      refused(
          "unauthorized_actor",
          kit.append(
              WS, OUTSIDER, "evt-x", "note.recorded", JarvisJson.mapper().createObjectNode()));
      assertEquals(before, kit.state(WS));
    }

    @Test
    void a_review_of_a_request_comes_from_an_actor_of_its_target_human_worker() {
      KitHost kit = KitHost.withSession();
      // A Request targets the WorkSession's human Worker (RequestRule), so a human of another
      // Worker is no member and is refused before the Review's own rules.
      kit.pendingFetch(WS, "pd-1", "req-1");
      refused(
          "unauthorized_actor",
          kit.scoped(
              "recordReview",
              WS,
              OUTSIDER,
              kit.review(WS, "rev-1", OUTSIDER, OTHER_WORKER, "request:req-1", "deny")));
      ok(
          kit.scoped(
              "recordReview",
              WS,
              HUMAN,
              kit.review(WS, "rev-1", HUMAN, HUMAN_WORKER, "request:req-1", "deny")));
    }
  }

  @Nested
  class Records_belong_to_their_worksession {

    @ParameterizedTest(name = "a {0} id of another WorkSession is refused")
    @ValueSource(strings = {"recordPolicyDecision", "createRequest"})
    void an_id_used_in_another_worksession_is_refused(String op) {
      KitHost kit = KitHost.withSession();
      ok(kit.createSession(OTHER_WS));
      kit.pendingFetch(WS, "pd-1", "req-1");
      kit.decide(OTHER_WS, "pd-2", "fetch_external_source", "review_required", "req-1");
      JsonNode reuse =
          op.equals("createRequest")
              ? kit.request(
                  OTHER_WS, "req-1", "pd-2", "fetch_external_source", Duration.ofMinutes(30))
              : kit.decision(OTHER_WS, "pd-1", "summarize", "allow", null);
      Object before = kit.state(WS);
      KitHost.Answer a = kit.scoped(op, OTHER_WS, AGENT, reuse);
      refused(op.equals("createRequest") ? "duplicate_request_mismatch" : "invalid_transition", a);
      assertEquals(before, kit.state(WS));
    }

    @Test
    void an_id_of_a_sealed_worksession_is_refused_as_sealed_evidence_mutation() {
      KitHost kit = KitHost.withSession();
      kit.decide(WS, "pd-1", "summarize", "allow", null);
      ok(kit.append(WS, AGENT, "evt-1", "agent.action", KitHost.citing("summarize", "pd-1")));
      ok(
          kit.scoped(
              "recordContribution",
              WS,
              AGENT,
              dev.jarvis.samples.SampleRecords.contribution(
                  "c-1", WS, KitHost.AGENT_WORKER, AGENT, "evt-1", kit.now())));
      kit.completeAndExport(WS);
      ok(kit.createSession(OTHER_WS));
      refused(
          "sealed_evidence_mutation",
          kit.scoped(
              "recordPolicyDecision",
              OTHER_WS,
              AGENT,
              kit.decision(OTHER_WS, "pd-1", "summarize", "allow", null)));
    }
  }

  @Nested
  class Approvals_bound_at_use {

    @Test
    void an_approved_action_is_accepted_once_then_its_scope_is_used_up() {
      KitHost kit = KitHost.withSession();
      kit.approvedFetch(WS, "pd-1", "req-1", "rev-1");
      ok(
          kit.append(
              WS, AGENT, "evt-1", "agent.action", KitHost.citing("fetch_external_source", "pd-1")));
      refused(
          "approval_scope_expired",
          kit.append(
              WS, AGENT, "evt-2", "agent.action", KitHost.citing("fetch_external_source", "pd-1")));
    }

    @Test
    void a_new_decision_naming_an_approved_request_does_not_inherit_its_approval() {
      KitHost kit = KitHost.withSession();
      kit.approvedFetch(WS, "pd-1", "req-1", "rev-1");
      kit.decide(WS, "pd-2", "fetch_external_source", "review_required", "req-1");
      Object before = kit.state(WS);
      refused(
          "approval_scope_mismatch",
          kit.append(
              WS, AGENT, "evt-1", "agent.action", KitHost.citing("fetch_external_source", "pd-2")));
      assertEquals(before, kit.state(WS));
    }

    @Test
    void an_approval_scope_past_its_expiry_admits_no_use() {
      KitHost kit = KitHost.withSession();
      kit.approvedFetch(WS, "pd-1", "req-1", "rev-1");
      kit.clock.advance(Duration.ofMinutes(31));
      refused(
          "approval_scope_expired",
          kit.append(
              WS, AGENT, "evt-1", "agent.action", KitHost.citing("fetch_external_source", "pd-1")));
    }

    @Test
    void an_approval_scope_on_a_review_of_another_target_is_held_to_the_request_it_names() {
      KitHost kit = KitHost.withSession();
      ObjectNode valid =
          kit.review(WS, "rev-1", HUMAN, HUMAN_WORKER, "work_session:" + WS, "approve");
      kit.approvedFetch(WS, "pd-1", "req-1", "rev-0");
      ObjectNode foreign = kit.scope(WS, "req-1", "rev-1", "pd-1", "fetch_external_source");
      foreign.put("applies_to_work_session_id", OTHER_WS);
      foreign.put("max_uses", 1000000);
      valid.set("approval_scope", foreign);
      refused("invalid_approval_scope", kit.scoped("recordReview", WS, HUMAN, valid));
    }
  }

  @Nested
  class Takeover_locks_are_per_takeover {

    @Test
    void resuming_one_of_two_locked_takeovers_keeps_the_worksession_in_takeover() {
      KitHost kit = KitHost.withSession();
      ok(
          kit.scoped(
              "recordTakeover",
              WS,
              HUMAN,
              kit.takeover(WS, "to-1", HUMAN, "scope:a", "locked", 1)));
      ok(
          kit.scoped(
              "recordTakeover",
              WS,
              HUMAN,
              kit.takeover(WS, "to-2", HUMAN, "scope:b", "locked", 1)));
      ok(
          kit.scoped(
              "recordTakeover",
              WS,
              HUMAN,
              kit.takeover(WS, "to-1", HUMAN, "scope:a", "resumed", 1)));
      assertEquals(
          "takeover", kit.read("getWorkSession", WS, HUMAN).body().path("status").asText());
      refused(
          "stale_takeover_epoch",
          kit.append(WS, AGENT, "evt-1", "note.recorded", JarvisJson.mapper().createObjectNode()));
      ok(
          kit.scoped(
              "recordTakeover",
              WS,
              HUMAN,
              kit.takeover(WS, "to-2", HUMAN, "scope:b", "resumed", 1)));
      assertEquals("active", kit.read("getWorkSession", WS, HUMAN).body().path("status").asText());
    }

    @Test
    void only_the_controlling_actor_moves_a_takeover_on() {
      KitHost kit = KitHost.withSession();
      ok(
          kit.scoped(
              "recordTakeover",
              WS,
              HUMAN,
              kit.takeover(WS, "to-1", HUMAN, "scope:a", "locked", 1)));
      refused(
          "unauthorized_actor",
          kit.scoped(
              "recordTakeover",
              WS,
              SECOND_HUMAN,
              kit.takeover(WS, "to-1", SECOND_HUMAN, "scope:a", "resumed", 1)));
    }
  }

  @Nested
  class Request_lifecycle {

    private KitHost withRequest() {
      KitHost kit = KitHost.withSession();
      kit.pendingFetch(WS, "pd-1", "req-1");
      return kit;
    }

    @Test
    void a_request_created_already_expired_is_refused() {
      KitHost kit = KitHost.withSession();
      kit.decide(WS, "pd-1", "fetch_external_source", "review_required", "req-1");
      refused(
          "invalid_request_transition",
          kit.scoped(
              "createRequest",
              WS,
              AGENT,
              kit.request(WS, "req-1", "pd-1", "fetch_external_source", Duration.ofMinutes(-1))));
    }

    @Test
    void a_request_past_its_expiry_is_expired_by_a_host_event_on_the_next_read() {
      KitHost kit = withRequest();
      kit.clock.advance(Duration.ofMinutes(30));
      JsonNode session = kit.read("getWorkSession", WS, HUMAN).body();
      assertEquals("active", session.path("status").asText());
      JsonNode request = kit.record(RecordKind.REQUEST, "req-1").orElseThrow();
      assertEquals("expired", request.path("status").asText());
      JsonNode last = kit.host.config().stores().sessions().events(WS).get(3);
      assertEquals("request.expired", last.path("type").asText());
      assertEquals(last.path("id").asText(), request.path("closed_by_event_ref").asText());
      assertEquals(
          true,
          last.path("payload").path("summary").asText().contains("keep_blocked_scope_stopped"));
      ok(kit.complete(WS));
    }

    @Test
    void a_duplicate_supersedes_its_original_which_then_blocks_nothing() {
      KitHost kit = withRequest();
      ObjectNode duplicate =
          kit.request(WS, "req-2", "pd-1", "fetch_external_source", Duration.ofMinutes(30));
      duplicate.put("duplicate_of_request_id", "req-1");
      ok(kit.scoped("createRequest", WS, AGENT, duplicate));
      JsonNode original = kit.record(RecordKind.REQUEST, "req-1").orElseThrow();
      assertEquals("superseded", original.path("status").asText());
      assertEquals("req-2", original.path("superseded_by_request_id").asText());
      assertEquals(WS + ".event.4", original.path("closed_by_event_ref").asText());
    }
  }

  @Nested
  class The_event_log_cannot_be_forged {

    @ParameterizedTest(name = "{0} is refused through appendJarvisEvent")
    @ValueSource(
        strings = {
          "review.recorded",
          "work_session.created",
          "request.expired",
          "policy_decision.recorded"
        })
    void an_event_type_the_host_writes_cannot_be_appended(String type) {
      KitHost kit = KitHost.withSession();
      Object before = kit.state(WS);
      refused(
          "unauthorized_actor",
          kit.append(WS, AGENT, "evt-forged", type, JarvisJson.mapper().createObjectNode()));
      assertEquals(before, kit.state(WS));
    }

    @ParameterizedTest(name = "an event {0} s away from the host clock is refused")
    @ValueSource(longs = {-301, 301})
    void an_event_outside_the_freshness_window_is_evidence_after_the_fact(long seconds) {
      KitHost kit = KitHost.withSession();
      ObjectNode draft =
          dev.jarvis.samples.SampleRecords.eventDraft(
              "evt-old",
              WS,
              HUMAN,
              "note.recorded",
              RequestTimestamp.format(kit.clock.instant().plusSeconds(seconds)));
      refused(
          "evidence_after_the_fact",
          kit.scoped(
              "appendJarvisEvent",
              WS,
              HUMAN,
              dev.jarvis.core.chain.EventChain.next(kit.cursor(WS), draft)));
    }
  }
}
