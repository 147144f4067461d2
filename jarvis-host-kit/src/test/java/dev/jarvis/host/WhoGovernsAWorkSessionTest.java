package dev.jarvis.host;

import static dev.jarvis.host.KitHost.AGENT;
import static dev.jarvis.host.KitHost.AGENT_WORKER;
import static dev.jarvis.host.KitHost.HUMAN;
import static dev.jarvis.host.KitHost.HUMAN_WORKER;
import static dev.jarvis.host.KitHost.OTHER_WORKER;
import static dev.jarvis.host.KitHost.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.samples.SampleRecords;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.DisplayNameGenerator;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Issue #37: an agent does not choose the Policy it is judged by, nor the human it works for, nor a
 * human no one can answer for. Each attack is refused and writes nothing; each has a positive
 * control the same host accepts.
 */
@DisplayNameGeneration(DisplayNameGenerator.ReplaceUnderscores.class)
class WhoGovernsAWorkSessionTest {

  /** Owned by {@link KitHost#HUMAN_WORKER}: the review its human requires. */
  static final String OWN_POLICY = "policy-human-1";

  /** Held for another owner, and as permissive as a Policy gets. */
  static final String FOREIGN_POLICY = "policy-permissive-777";

  /** A registered human Worker with no Actor at all. */
  static final String UNANSWERED_WORKER = "worker-human-002";

  static ObjectNode policy(String id, String owner) {
    ObjectNode p = (ObjectNode) JarvisJson.mapper().valueToTree(SampleRecords.policyRecord());
    p.put("id", id);
    p.put("owner_worker_id", owner);
    return p;
  }

  static ObjectNode permissive() {
    ObjectNode p = policy(FOREIGN_POLICY, "worker-someone-else");
    p.put("autonomy_level", "full_execute_in_scope");
    p.putArray("review_required_actions");
    p.putArray("escalation_rules");
    p.withArray("allowed_actions").addObject().put("action", "publish_answer");
    return p;
  }

  /** A kit host under {@code governance}, holding the human's own and the foreign Policy. */
  static KitHost host(WorkSessionGovernance governance) {
    return host(b -> b.governance(governance));
  }

  static KitHost host(UnaryOperator<HostConfig.Builder> configure) {
    KitHost kit = new KitHost(HostAuth.anyCaller(), "", configure);
    kit.host.seedPolicy(policy(OWN_POLICY, HUMAN_WORKER));
    kit.host.seedPolicy(permissive());
    kit.admin(
        "registerWorker", UNANSWERED_WORKER, SampleRecords.worker(UNANSWERED_WORKER, "human"));
    return kit;
  }

  static final WorkSessionGovernance AGENT_SERVES_HUMAN =
      WorkSessionGovernance.NONE.agentServes(AGENT_WORKER, HUMAN_WORKER);

  static KitHost.Answer create(
      KitHost kit, String ws, String creator, String human, String policyId) {
    ObjectNode session =
        SampleRecords.workSession(ws, creator, human, AGENT_WORKER, policyId, kit.now());
    return kit.send("createWorkSession", Map.of(), creator, session, "");
  }

  static void refusedUnchanged(KitHost kit, String ws, String errorId, KitHost.Answer a) {
    assertEquals(400, a.status(), a.body().toString());
    assertEquals(errorId, a.errorId(), a.body().toString());
    assertTrue(kit.host.config().stores().sessions().find(ws).isEmpty(), "a WorkSession was made");
  }

  @Nested
  class The_policy_governs_the_human {

    @Test
    void an_agent_serving_the_human_cannot_choose_a_policy_held_for_another_owner() {
      KitHost kit = host(AGENT_SERVES_HUMAN);
      refusedUnchanged(
          kit, "ws-a", "missing_policy", create(kit, "ws-a", AGENT, HUMAN_WORKER, FOREIGN_POLICY));
      ok(create(kit, "ws-b", AGENT, HUMAN_WORKER, OWN_POLICY));
    }

    @Test
    void the_human_itself_cannot_open_a_worksession_under_another_owners_policy() {
      KitHost kit = host(WorkSessionGovernance.NONE);
      refusedUnchanged(
          kit, "ws-a", "missing_policy", create(kit, "ws-a", HUMAN, HUMAN_WORKER, FOREIGN_POLICY));
      ok(create(kit, "ws-b", HUMAN, HUMAN_WORKER, OWN_POLICY));
    }

    @Test
    void a_foreign_policy_and_an_absent_one_get_the_same_refusal_but_for_the_id() {
      KitHost kit = host(AGENT_SERVES_HUMAN);
      JsonNode foreign = create(kit, "ws-a", AGENT, HUMAN_WORKER, FOREIGN_POLICY).body();
      JsonNode absent = create(kit, "ws-a", AGENT, HUMAN_WORKER, "policy-nowhere").body();
      assertEquals(
          withoutTrace(foreign).toString().replace(FOREIGN_POLICY, "ID"),
          withoutTrace(absent).toString().replace("policy-nowhere", "ID"));
    }

    @Test
    void a_policy_the_operator_assigns_to_the_human_governs_it() {
      KitHost kit = host(AGENT_SERVES_HUMAN.assignPolicy(FOREIGN_POLICY, HUMAN_WORKER));
      ok(create(kit, "ws-a", AGENT, HUMAN_WORKER, FOREIGN_POLICY));
    }

    @Test
    void a_policy_assigned_to_another_human_does_not_govern_this_one() {
      KitHost kit = host(AGENT_SERVES_HUMAN.assignPolicy(FOREIGN_POLICY, OTHER_WORKER));
      refusedUnchanged(
          kit, "ws-a", "missing_policy", create(kit, "ws-a", AGENT, HUMAN_WORKER, FOREIGN_POLICY));
    }

    @Test
    void the_default_policy_governs_only_the_humans_it_is_owned_by_or_assigned_to() {
      KitHost unassigned = host(b -> b.governance(AGENT_SERVES_HUMAN).defaultPolicy(permissive()));
      refusedUnchanged(
          unassigned,
          "ws-a",
          "missing_policy",
          create(unassigned, "ws-a", AGENT, HUMAN_WORKER, "policy-nowhere"));
      KitHost assigned =
          host(
              b ->
                  b.governance(AGENT_SERVES_HUMAN.assignPolicyToEveryHuman(FOREIGN_POLICY))
                      .defaultPolicy(permissive()));
      ok(create(assigned, "ws-a", AGENT, HUMAN_WORKER, "policy-nowhere"));
    }

    @Test
    void a_withdrawn_assignment_holds_no_further_decision_to_the_policy() {
      KitHost kit = host(WorkSessionGovernance.NONE.assignPolicy(FOREIGN_POLICY, HUMAN_WORKER));
      ok(create(kit, "ws-a", HUMAN, HUMAN_WORKER, FOREIGN_POLICY));
      // The same store under a host whose operator withdrew the assignment.
      ProtocolHost withdrawn =
          new ProtocolHost(
              HostConfig.builder(HostAuth.anyCaller())
                  .clock(kit.clock)
                  .stores(kit.host.config().stores())
                  .build());
      KitHost.Answer decision =
          kit.sendThrough(
              withdrawn,
              "recordPolicyDecision",
              Map.of("work_session_id", "ws-a"),
              AGENT,
              kit.decision("ws-a", "pd-1", "read_source", "allow", null)
                  .put("policy_id", FOREIGN_POLICY));
      assertEquals("missing_policy", decision.errorId(), decision.body().toString());
    }
  }

  @Nested
  class The_agent_serves_the_human {

    @Test
    void an_agent_not_configured_to_serve_the_human_cannot_open_a_worksession_for_it() {
      KitHost kit = host(WorkSessionGovernance.NONE);
      refusedUnchanged(
          kit, "ws-a", "unauthorized_actor", create(kit, "ws-a", AGENT, HUMAN_WORKER, OWN_POLICY));
    }

    @Test
    void an_agent_serving_one_human_cannot_open_a_worksession_for_another() {
      KitHost kit = host(AGENT_SERVES_HUMAN.assignPolicy(OWN_POLICY, OTHER_WORKER));
      refusedUnchanged(
          kit, "ws-a", "unauthorized_actor", create(kit, "ws-a", AGENT, OTHER_WORKER, OWN_POLICY));
    }

    @Test
    void an_agent_not_serving_the_human_learns_nothing_of_its_policies() {
      KitHost kit = host(WorkSessionGovernance.NONE);
      assertEquals(
          "unauthorized_actor", create(kit, "ws-a", AGENT, HUMAN_WORKER, OWN_POLICY).errorId());
      assertEquals(
          "unauthorized_actor", create(kit, "ws-a", AGENT, HUMAN_WORKER, FOREIGN_POLICY).errorId());
      assertEquals(
          "unauthorized_actor",
          create(kit, "ws-a", AGENT, UNANSWERED_WORKER, OWN_POLICY).errorId());
    }

    @Test
    void an_agent_configured_to_serve_the_human_opens_a_worksession_under_its_policy() {
      KitHost kit = host(AGENT_SERVES_HUMAN);
      KitHost.Answer a = create(kit, "ws-a", AGENT, HUMAN_WORKER, OWN_POLICY);
      assertEquals(201, a.status(), a.body().toString());
    }

    @Test
    void a_service_actor_of_the_human_worker_is_not_the_human() {
      KitHost kit = host(WorkSessionGovernance.NONE);
      kit.admin(
          "registerActor",
          "actor-service-1",
          SampleRecords.actor("actor-service-1", HUMAN_WORKER, "service", "2026-06-12T17:00:00Z"));
      refusedUnchanged(
          kit,
          "ws-a",
          "unauthorized_actor",
          create(kit, "ws-a", "actor-service-1", HUMAN_WORKER, OWN_POLICY));
    }
  }

  @Nested
  class Someone_can_answer_for_the_human {

    @Test
    void an_agent_cannot_open_a_worksession_for_a_human_worker_without_an_actor() {
      WorkSessionGovernance serves =
          WorkSessionGovernance.NONE
              .agentServes(AGENT_WORKER, UNANSWERED_WORKER)
              .assignPolicy(OWN_POLICY, UNANSWERED_WORKER);
      KitHost kit = host(serves);
      refusedUnchanged(
          kit, "ws-a", "unknown_state", create(kit, "ws-a", AGENT, UNANSWERED_WORKER, OWN_POLICY));
      // Positive control: once the human Worker has an Actor, the same request is accepted.
      kit.admin(
          "registerActor",
          "actor-human-002",
          SampleRecords.actor(
              "actor-human-002", UNANSWERED_WORKER, "human", "2026-06-12T17:00:00Z"));
      ok(create(kit, "ws-a", AGENT, UNANSWERED_WORKER, OWN_POLICY));
    }

    @Test
    void a_human_actor_past_its_validity_or_barred_from_reviews_answers_for_no_one() {
      WorkSessionGovernance serves =
          WorkSessionGovernance.NONE
              .agentServes(AGENT_WORKER, UNANSWERED_WORKER)
              .assignPolicy(OWN_POLICY, UNANSWERED_WORKER);
      KitHost kit = host(serves);
      ObjectNode expired =
          SampleRecords.actor(
              "actor-human-002", UNANSWERED_WORKER, "human", "2026-06-12T17:00:00Z");
      expired.put("valid_until", "2026-06-12T17:30:00Z");
      kit.admin("registerActor", "actor-human-002", expired);
      ObjectNode barred =
          SampleRecords.actor(
              "actor-human-003", UNANSWERED_WORKER, "human", "2026-06-12T17:00:00Z");
      ((ObjectNode) barred.path("event_authority"))
          .putArray("allowed_event_types")
          .add("note.added");
      kit.admin("registerActor", "actor-human-003", barred);
      ObjectNode agentOfTheHuman =
          SampleRecords.actor(
              "actor-agent-002", UNANSWERED_WORKER, "agent", "2026-06-12T17:00:00Z");
      kit.admin("registerActor", "actor-agent-002", agentOfTheHuman);
      refusedUnchanged(
          kit, "ws-a", "unknown_state", create(kit, "ws-a", AGENT, UNANSWERED_WORKER, OWN_POLICY));
    }
  }

  private static JsonNode withoutTrace(JsonNode error) {
    ObjectNode copy = error.deepCopy();
    copy.remove("trace_id");
    return copy;
  }
}
