package dev.jarvis.conformance;

import static dev.jarvis.conformance.ExchangeRules.expectRefusal;
import static dev.jarvis.conformance.ExchangeRules.expectSuccess;
import static dev.jarvis.conformance.PurposeChecks.agentAction;
import static dev.jarvis.conformance.PurposeChecks.send;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.hash.ActionHash;
import dev.jarvis.core.sample.SampleRecords;

/**
 * Live checks that the host enforces the Policy rather than recording what an agent says of it.
 * They assume the host holds the sample Policy ({@code policy-bounded-001}: {@code summarize} and
 * {@code read_source} allowed, {@code fetch_external_source} reviewed, high risk escalated); each
 * attack runs after a positive control the same host must accept.
 */
final class PolicyChecks {

  private static final String GROUP = "policy";

  private PolicyChecks() {}

  static void run(CheckRunner runner, LiveHost live) {
    runner.check(
        GROUP,
        "an agent's own narrow decision for a review-required action is refused with"
            + " review_required",
        () -> {
          String session = live.newSession();
          expectRefusal(
              decide(live, session, decision(live, session, "fetch_external_source", "narrow")),
              "review_required");
          return null;
        });
    runner.check(
        GROUP,
        "an allow decision for an action the Policy does not name is refused with policy_denied",
        () -> {
          String session = live.newSession();
          expectSuccess(decide(live, session, decision(live, session, "summarize", "allow")));
          expectRefusal(
              decide(live, session, decision(live, session, "SUMMARIZE", "allow")),
              "policy_denied");
          return null;
        });
    runner.check(
        GROUP,
        "an allow decision declaring high risk is refused with review_required",
        () -> {
          String session = live.newSession();
          ObjectNode high = decision(live, session, "summarize", "allow");
          high.put("risk_class", "high");
          expectRefusal(decide(live, session, high), "review_required");
          return null;
        });
    runner.check(
        GROUP,
        "an agent event of an action the Policy does not name, citing no decision, is refused"
            + " with missing_policy_decision",
        () -> {
          String session = live.newSession();
          ChainCursor at = live.cursor(session);
          ObjectNode draft =
              SampleRecords.eventDraft(
                  live.id("evt"), session, live.agent, "agent.acted", live.now());
          ((ObjectNode) draft.path("payload")).put("action", "publish_answer");
          expectRefusal(
              live.send(
                  "appendJarvisEvent",
                  session,
                  live.headers("appendJarvisEvent", live.agent, at),
                  EventChain.next(at, draft)),
              "missing_policy_decision");
          return null;
        });
    runner.check(
        GROUP,
        "a second agent action under one allow decision is refused with missing_policy_decision",
        () -> {
          String session = live.newSession();
          ObjectNode allow = decision(live, session, "summarize", "allow");
          expectSuccess(decide(live, session, allow));
          String id = allow.path("id").asText();
          expectSuccess(agentAction(live, session, "summarize", id));
          expectRefusal(agentAction(live, session, "summarize", id), "missing_policy_decision");
          return null;
        });
    runner.check(
        GROUP,
        "an event whose id the WorkSession holds already is refused with invalid_transition",
        () -> {
          String session = live.newSession();
          String id = live.id("evt");
          ChainCursor at = live.cursor(session);
          expectSuccess(live.appendEvent(session, at, note(live, session, id, at)));
          ChainCursor next = live.cursor(session);
          expectRefusal(
              live.appendEvent(session, next, note(live, session, id, next)), "invalid_transition");
          return null;
        });
    runner.check(
        GROUP,
        "an event type that imitates a host-written one is refused with unauthorized_actor",
        () -> {
          String session = live.newSession();
          ChainCursor at = live.cursor(session);
          ObjectNode forged =
              EventChain.next(
                  at,
                  SampleRecords.eventDraft(
                      live.id("evt"), session, live.human, "Review.Recorded", live.now()));
          expectRefusal(live.appendEvent(session, at, forged), "unauthorized_actor");
          return null;
        });
  }

  private static Exchange decide(LiveHost live, String session, ObjectNode decision) {
    return send(live, session, "recordPolicyDecision", live.agent, decision);
  }

  /** The agent's decision on {@code action} (medium risk), naming a Request where it must. */
  private static ObjectNode decision(LiveHost live, String session, String action, String result) {
    ObjectNode decision = live.decision(session, live.agent);
    ObjectNode requested = decision.putObject("requested_action");
    requested.put("action", action);
    requested.put("target_ref", "source:conformance");
    decision.put("normalized_action_hash", ActionHash.of(requested));
    decision.put("result", result);
    decision.put("risk_class", "medium");
    if (result.equals("deny") || result.equals("review_required")) {
      decision.put("request_id", live.id("req"));
    }
    return decision;
  }

  private static ObjectNode note(LiveHost live, String session, String id, ChainCursor at) {
    return EventChain.next(
        at, SampleRecords.eventDraft(id, session, live.human, "note.recorded", live.now()));
  }
}
