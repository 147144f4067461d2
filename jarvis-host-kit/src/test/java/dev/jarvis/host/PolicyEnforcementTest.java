package dev.jarvis.host;

import static dev.jarvis.host.KitHost.AGENT;
import static dev.jarvis.host.KitHost.AGENT_WORKER;
import static dev.jarvis.host.KitHost.HUMAN;
import static dev.jarvis.host.KitHost.WS;
import static dev.jarvis.host.KitHost.citing;
import static dev.jarvis.host.KitHost.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.hash.ActionHash;
import dev.jarvis.model.AgentWorker;
import dev.jarvis.model.AutonomyLevel;
import dev.jarvis.samples.SampleRecords;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The host holds every PolicyDecision and every agent action to the WorkSession's Policy (the
 * sample Policy: summarize and read_source allowed, delete_repository denied, fetch_external_source
 * reviewed, high risk escalated to review). Each attack is refused and changes nothing; each has a
 * positive control that the same host accepts.
 */
class PolicyEnforcementTest {

  private static void refused(String errorId, KitHost.Answer a) {
    assertEquals(errorId, a.errorId(), a.body().toString());
  }

  private static ObjectNode empty() {
    return JarvisJson.mapper().createObjectNode();
  }

  /** Credits the event to the agent, completes the WorkSession and exports its evidence. */
  private static void creditAndExport(KitHost kit, String eventId) {
    ok(
        kit.scoped(
            "recordContribution",
            WS,
            AGENT,
            SampleRecords.contribution("c-1", WS, AGENT_WORKER, AGENT, eventId, kit.now())));
    kit.completeAndExport(WS);
  }

  @Nested
  class A_decision_is_never_more_permissive_than_the_policy {

    @ParameterizedTest(name = "the agent's own {0} of a reviewed action is refused")
    @ValueSource(strings = {"allow", "narrow"})
    void an_agent_cannot_approve_a_reviewed_action_itself(String result) {
      KitHost kit = KitHost.withSession();
      Object before = kit.state(WS);
      refused(
          "review_required",
          kit.scoped(
              "recordPolicyDecision",
              WS,
              AGENT,
              kit.decision(WS, "pd-1", "fetch_external_source", result, null)));
      assertEquals(before, kit.state(WS));
      // Positive control: review_required is what the Policy says, and it is recorded.
      kit.decide(WS, "pd-1", "fetch_external_source", "review_required", "req-1");
    }

    @ParameterizedTest(name = "a {0} of a denied action is refused")
    @ValueSource(strings = {"allow", "narrow", "review_required"})
    void a_denied_action_stays_denied(String result) {
      KitHost kit = KitHost.withSession();
      refused(
          "policy_denied",
          kit.scoped(
              "recordPolicyDecision",
              WS,
              AGENT,
              kit.decision(WS, "pd-1", "delete_repository", result, "req-1")));
      kit.decide(WS, "pd-1", "delete_repository", "deny", "req-1");
    }

    @Test
    void a_high_risk_action_escalates_to_review() {
      KitHost kit = KitHost.withSession();
      ObjectNode high = kit.decision(WS, "pd-1", "summarize", "allow", null);
      high.put("risk_class", "high");
      refused("review_required", kit.scoped("recordPolicyDecision", WS, AGENT, high));
      kit.decide(WS, "pd-1", "summarize", "allow", null);
    }

    @Test
    void a_risk_class_the_policy_does_not_know_is_denied() {
      KitHost kit = KitHost.withSession();
      ObjectNode critical = kit.decision(WS, "pd-1", "summarize", "deny", "req-1");
      ObjectNode allowCritical = kit.decision(WS, "pd-2", "summarize", "allow", null);
      allowCritical.put("risk_class", "critical");
      critical.put("risk_class", "critical");
      refused("policy_denied", kit.scoped("recordPolicyDecision", WS, AGENT, allowCritical));
      // A deny is never too permissive, whatever the risk it declares.
      ok(kit.scoped("recordPolicyDecision", WS, AGENT, critical));
    }

    @ParameterizedTest(name = "''{0}'' is not an allowed action")
    @ValueSource(
        strings = {
          "SUMMARIZE",
          "summarize ",
          "summ\u200Barize",
          "summ\u0430rize",
          "publish_answer",
          "anything_else"
        })
    void an_action_no_rule_names_is_denied_by_default(String action) {
      KitHost kit = KitHost.withSession();
      refused(
          "policy_denied",
          kit.scoped(
              "recordPolicyDecision", WS, AGENT, kit.decision(WS, "pd-1", action, "allow", null)));
      kit.decide(WS, "pd-1", "summarize", "allow", null);
    }

    @ParameterizedTest(name = "an AgentWorker at {0} may record {1} for summarize, not {2}")
    @CsvSource({
      "observe_only,        deny,            allow, policy_denied",
      "propose_only,        deny,            narrow, policy_denied",
      "execute_with_review, review_required, allow, review_required",
      "bounded_execute,     allow,           allow, none"
    })
    void the_agent_workers_autonomy_level_applies_with_the_policys(
        String level, String admitted, String tooMuch, String errorId) {
      AgentWorker worker =
          new AgentWorker()
              .workerId(AGENT_WORKER)
              .actorId(AGENT)
              .autonomyLevel(AutonomyLevel.fromValue(level));
      KitHost kit =
          new KitHost(
              HostAuth.anyCaller(),
              "",
              b -> b.agentActions(AgentActions.DEFAULT.withAgentWorker(worker)));
      kit.createSession(WS);
      ObjectNode over = kit.decision(WS, "pd-1", "summarize", tooMuch, null);
      if (!errorId.equals("none")) {
        refused(errorId, kit.scoped("recordPolicyDecision", WS, AGENT, over));
      }
      kit.decide(WS, "pd-2", "summarize", admitted, admitted.equals("allow") ? null : "req-2");
    }
  }

  @Nested
  class Every_agent_action_needs_its_own_decision {

    @ParameterizedTest(name = "an agent''s ''{0}'' without a decision is refused")
    @ValueSource(
        strings = {
          "publish_answer",
          "PUBLISH_ANSWER",
          "publish_answer ",
          "publish\u200B_answer",
          "publish_\u0430nswer",
          "summarize"
        })
    void an_agent_event_without_a_decision_is_refused_whatever_its_action(String action) {
      KitHost kit = KitHost.withSession();
      ObjectNode payload = empty().put("action", action);
      Object before = kit.state(WS);
      refused("missing_policy_decision", kit.append(WS, AGENT, "evt-1", "agent.action", payload));
      assertEquals(before, kit.state(WS));
      // Positive control: the human's event of the same shape is no agent action.
      ok(kit.append(WS, HUMAN, "evt-1", "agent.action", payload));
    }

    @Test
    void a_decision_for_another_action_does_not_cover_this_one() {
      KitHost kit = KitHost.withSession();
      kit.decide(WS, "pd-1", "summarize", "allow", null);
      refused(
          "missing_policy_decision",
          kit.append(WS, AGENT, "evt-1", "agent.action", citing("summarize ", "pd-1")));
      ok(kit.append(WS, AGENT, "evt-1", "agent.action", citing("summarize", "pd-1")));
    }

    @Test
    void an_allow_decision_admits_one_action_only() {
      KitHost kit = KitHost.withSession();
      kit.decide(WS, "pd-1", "summarize", "allow", null);
      ok(kit.append(WS, AGENT, "evt-1", "agent.action", citing("summarize", "pd-1")));
      refused(
          "missing_policy_decision",
          kit.append(WS, AGENT, "evt-2", "agent.action", citing("summarize", "pd-1")));
      kit.decide(WS, "pd-2", "summarize", "allow", null);
      ok(kit.append(WS, AGENT, "evt-2", "agent.action", citing("summarize", "pd-2")));
    }

    @Test
    void a_reviewed_action_goes_ahead_only_after_a_humans_approval() {
      KitHost kit = KitHost.withSession();
      kit.pendingFetch(WS, "pd-1", "req-1");
      refused(
          "review_required",
          kit.append(WS, AGENT, "evt-1", "agent.action", citing("fetch_external_source", "pd-1")));
      KitHost approved = KitHost.withSession();
      approved.approvedFetch(WS, "pd-1", "req-1", "rev-1");
      ok(
          approved.append(
              WS, AGENT, "evt-1", "agent.action", citing("fetch_external_source", "pd-1")));
    }

    @Test
    void a_host_names_the_event_types_that_are_not_actions() {
      KitHost kit =
          new KitHost(
              HostAuth.anyCaller(),
              "",
              b ->
                  b.agentActions(
                      AgentActions.DEFAULT.withNonActionEventTypes(List.of("note.recorded"))));
      kit.createSession(WS);
      ok(kit.append(WS, AGENT, "evt-1", "note.recorded", empty().put("action", "noted")));
      // Exact code points: a look-alike of a non-action type is an action like any other.
      refused(
          "missing_policy_decision",
          kit.append(WS, AGENT, "evt-2", "Note.Recorded", empty().put("action", "noted")));
    }
  }

  @Nested
  class The_log_cannot_be_poisoned {

    @Test
    void an_event_id_is_unique_within_its_worksession() {
      KitHost kit = KitHost.withSession();
      ok(kit.append(WS, HUMAN, "evt-1", "note.recorded", empty()));
      Object before = kit.state(WS);
      refused("invalid_transition", kit.append(WS, HUMAN, "evt-1", "note.recorded", empty()));
      assertEquals(before, kit.state(WS));
      // The export, which lists every event id once, still works.
      creditAndExport(kit, "evt-1");
    }

    @ParameterizedTest(name = "a client event may not take the host''s id {0}")
    @ValueSource(strings = {"ws-1.event.1", "ws-1.event.2", "ws-1.event.99"})
    void the_hosts_own_event_ids_are_reserved(String id) {
      KitHost kit = KitHost.withSession();
      refused("unauthorized_actor", kit.append(WS, HUMAN, id, "note.recorded", empty()));
      ok(kit.append(WS, HUMAN, "ws-1.event.note", "note.recorded", empty()));
      creditAndExport(kit, "ws-1.event.note");
    }

    @ParameterizedTest(name = "''{0}'' imitates a host-written type")
    @ValueSource(
        strings = {
          "review.recorded",
          "Review.Recorded",
          "review.recorded\u200B",
          "r\u0435view.recorded",
          " policy_decision.recorded",
          "WORK_SESSION.CREATED"
        })
    void a_look_alike_of_a_host_written_event_type_is_refused(String type) {
      KitHost kit = KitHost.withSession();
      refused("unauthorized_actor", kit.append(WS, HUMAN, "evt-1", type, empty()));
      ok(kit.append(WS, HUMAN, "evt-1", "review.noted", empty()));
    }

    @Test
    void a_host_reserves_event_types_of_its_own() {
      KitHost kit =
          new KitHost(
              HostAuth.anyCaller(),
              "",
              b ->
                  b.agentActions(
                      AgentActions.DEFAULT.withReservedEventTypes(List.of("billing.charged"))));
      kit.createSession(WS);
      refused("unauthorized_actor", kit.append(WS, HUMAN, "evt-1", "billing.charged", empty()));
      refused("unauthorized_actor", kit.append(WS, HUMAN, "evt-1", "Billing.Charged", empty()));
      ok(kit.append(WS, HUMAN, "evt-1", "billing.estimated", empty()));
    }
  }

  /** The action hash binds target and scope; the sample Policy's rules name neither. */
  @Test
  void a_decision_whose_hash_does_not_match_its_action_is_refused() {
    KitHost kit = KitHost.withSession();
    ObjectNode decision = kit.decision(WS, "pd-1", "summarize", "allow", null);
    decision.put("normalized_action_hash", ActionHash.of(KitHost.action("read_source")));
    refused("approval_scope_mismatch", kit.scoped("recordPolicyDecision", WS, AGENT, decision));
  }
}
