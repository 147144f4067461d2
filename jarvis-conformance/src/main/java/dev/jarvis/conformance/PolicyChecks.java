package dev.jarvis.conformance;

import static dev.jarvis.conformance.ExchangeRules.expectRefusal;
import static dev.jarvis.conformance.ExchangeRules.expectSuccess;
import static dev.jarvis.conformance.PurposeChecks.agentAction;
import static dev.jarvis.conformance.PurposeChecks.send;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.samples.SampleRecords;

/**
 * Live checks that the host enforces the Policy rather than recording what an agent says of it.
 * Every action they send is taken from the Policy the host holds for the suite's WorkSessions
 * ({@link PolicyActions}): one it permits, one it reviews, one a rule of it denies, one it does not
 * name, one it escalates at a higher risk; a check whose kind of action the Policy does not offer
 * is skipped, saying so. Each attack that can have one runs after a positive control the same host
 * must accept.
 */
final class PolicyChecks {

  private static final String GROUP = "policy";

  private PolicyChecks() {}

  static void run(CheckRunner runner, LiveHost live) {
    PolicyActions actions = live.suitePolicy.actions();
    runner.check(
        GROUP,
        "an agent's own narrow decision for a review-required action is refused with"
            + " review_required",
        live.suitePolicy.hinted(
            () -> {
              PolicyActions.Action reviewed = actions.reviewed();
              String session = live.newSession();
              expectSuccess(decide(live, session, reviewed, PolicyDecisionResult.REVIEW_REQUIRED));
              expectRefusal(
                  decide(live, session, reviewed, PolicyDecisionResult.NARROW), "review_required");
              return "with " + reviewed.describe();
            }));
    runner.check(
        GROUP,
        "an allow decision for an action the Policy does not name is refused with policy_denied",
        live.suitePolicy.hinted(
            () -> {
              PolicyActions.Action permitted = actions.permitted();
              PolicyActions.Action unnamed = actions.unnamed();
              String session = live.newSession();
              expectSuccess(decide(live, session, permitted, permitted.result()));
              expectRefusal(
                  decide(live, session, unnamed, PolicyDecisionResult.ALLOW), "policy_denied");
              return "with " + unnamed.describe() + ", after " + permitted.describe();
            }));
    runner.check(
        GROUP,
        "an allow decision for an action the Policy denies is refused with policy_denied",
        live.suitePolicy.hinted(
            () -> {
              PolicyActions.Action denied = actions.denied();
              String session = live.newSession();
              expectRefusal(
                  decide(live, session, denied, PolicyDecisionResult.ALLOW), "policy_denied");
              return "with " + denied.describe();
            }));
    runner.check(
        GROUP,
        "an allow decision declaring a risk class the Policy escalates is refused with"
            + " review_required",
        live.suitePolicy.hinted(
            () -> {
              PolicyActions.Escalation escalation = actions.escalation();
              String session = live.newSession();
              PolicyActions.Action permitted = escalation.permitted();
              expectSuccess(decide(live, session, permitted, permitted.result()));
              expectRefusal(
                  decide(live, session, escalation.escalated(), PolicyDecisionResult.ALLOW),
                  "review_required");
              return "with " + escalation.escalated().describe();
            }));
    runner.check(
        GROUP,
        "an agent event of an action the Policy does not name, citing no decision, is refused"
            + " with missing_policy_decision",
        live.suitePolicy.hinted(
            () -> {
              PolicyActions.Action unnamed = actions.unnamed();
              String session = live.newSession();
              ChainCursor at = live.cursor(session);
              ObjectNode draft =
                  SampleRecords.eventDraft(
                      live.id("evt"), session, live.agent, "agent.acted", live.now());
              ((ObjectNode) draft.path("payload")).put("action", unnamed.name());
              expectRefusal(
                  live.send(
                      "appendJarvisEvent",
                      session,
                      live.headers("appendJarvisEvent", live.agent, at),
                      EventChain.next(at, draft)),
                  "missing_policy_decision");
              return "with " + unnamed.describe();
            }));
    runner.check(
        GROUP,
        "a second agent action under one allow decision is refused with missing_policy_decision",
        live.suitePolicy.hinted(
            () -> {
              PolicyActions.Action permitted = actions.permitted();
              String session = live.newSession();
              ObjectNode allow = live.decision(session, live.agent, permitted, permitted.result());
              expectSuccess(send(live, session, "recordPolicyDecision", live.agent, allow));
              String id = allow.path("id").asText();
              expectSuccess(agentAction(live, session, permitted.name(), id));
              expectRefusal(
                  agentAction(live, session, permitted.name(), id), "missing_policy_decision");
              return "with " + permitted.describe();
            }));
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

  /** The agent's decision on {@code action}, at its risk class, with the result given. */
  private static Exchange decide(
      LiveHost live, String session, PolicyActions.Action action, PolicyDecisionResult result) {
    return send(
        live,
        session,
        "recordPolicyDecision",
        live.agent,
        live.decision(session, live.agent, action, result));
  }

  private static ObjectNode note(LiveHost live, String session, String id, ChainCursor at) {
    return EventChain.next(
        at, SampleRecords.eventDraft(id, session, live.human, "note.recorded", live.now()));
  }
}
