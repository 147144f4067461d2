package dev.jarvis.conformance;

import static dev.jarvis.conformance.ExchangeRules.expectRefusal;
import static dev.jarvis.conformance.ExchangeRules.expectSuccess;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.samples.SampleRecords;
import java.time.Duration;
import java.time.Instant;

/**
 * Live checks that the host keeps the protocol's purpose, not only its form: membership, the
 * Request's target human, ids kept to their WorkSession, approvals bound at use, per-Takeover
 * locks, Requests that cannot be born expired, and an event log no client can forge. The refusals
 * are those {@code docs/host.md} and {@code docs/protocol-decisions.md} decide where the spec is
 * silent.
 */
final class PurposeChecks {

  private static final String GROUP = "purpose";

  private PurposeChecks() {}

  static void run(CheckRunner runner, LiveHost live) {
    runner.check(
        GROUP,
        "registerActor accepts a human Actor of a Worker outside the suite's WorkSessions",
        () -> {
          expectSuccess(
              live.send(
                  "registerWorker",
                  live.outsiderWorker,
                  live.headers("registerWorker", live.registrar, null),
                  SampleRecords.worker(live.outsiderWorker, "human")));
          expectSuccess(
              live.send(
                  "registerActor",
                  live.outsider,
                  live.headers("registerActor", live.registrar, null),
                  SampleRecords.actor(live.outsider, live.outsiderWorker, "human", live.now())));
          return null;
        });
    runner.check(
        GROUP,
        "getWorkSession by an Actor of neither of its Workers is refused with unauthorized_actor",
        () -> {
          String session = live.newSession();
          expectRefusal(
              live.send("getWorkSession", session, live.readHeaders(live.outsider)),
              "unauthorized_actor");
          return null;
        });
    runner.check(
        GROUP,
        "getWorkSession by a non-member answers an existing and an unknown WorkSession alike",
        () -> {
          String session = live.newSession();
          Exchange existing = live.send("getWorkSession", session, live.readHeaders(live.outsider));
          Exchange unknown =
              live.send("getWorkSession", live.id("ws-unknown"), live.readHeaders(live.outsider));
          expectRefusal(existing, "unauthorized_actor");
          expectSameRefusal(existing, unknown);
          return null;
        });
    runner.check(
        GROUP,
        "a Review of a Request by a human of another Worker than its target is refused with"
            + " unauthorized_actor",
        live.suitePolicy.hinted(
            () -> {
              PolicyActions.Action action = reviewable(live);
              String session = live.newSession();
              String decision = live.id("pd");
              String request = live.id("req");
              reviewRequired(live, session, action, decision, request);
              expectSuccess(
                  request(
                      live,
                      session,
                      action,
                      decision,
                      request,
                      live.humanWorker,
                      live.instant().plus(Duration.ofMinutes(30))));
              expectRefusal(
                  send(
                      live,
                      session,
                      "recordReview",
                      live.outsider,
                      PurposeRecords.review(
                          live,
                          session,
                          live.id("review"),
                          live.outsider,
                          live.outsiderWorker,
                          "request:" + request,
                          "deny")),
                  "unauthorized_actor");
              return "with " + action.describe();
            }));
    runner.check(
        GROUP,
        "a Request aimed at a human Worker outside its WorkSession is refused with unknown_state",
        live.suitePolicy.hinted(
            () -> {
              PolicyActions.Action action = reviewable(live);
              String session = live.newSession();
              String decision = live.id("pd");
              reviewRequired(live, session, action, decision, live.id("req"));
              expectRefusal(
                  request(
                      live,
                      session,
                      action,
                      decision,
                      live.id("req"),
                      live.outsiderWorker,
                      live.instant().plus(Duration.ofMinutes(30))),
                  "unknown_state");
              return "with " + action.describe();
            }));
    runner.check(
        GROUP,
        "a Request naming another requester Worker than the caller's is refused with"
            + " actor_body_id_mismatch",
        live.suitePolicy.hinted(
            () -> {
              PolicyActions.Action action = reviewable(live);
              String session = live.newSession();
              String decision = live.id("pd");
              String request = live.id("req");
              reviewRequired(live, session, action, decision, request);
              ObjectNode forged =
                  PurposeRecords.request(
                      live,
                      session,
                      request,
                      decision,
                      action,
                      live.humanWorker,
                      live.instant().plus(Duration.ofMinutes(30)));
              forged.put("requester_worker_id", live.humanWorker);
              expectRefusal(
                  send(live, session, "createRequest", live.agent, forged),
                  "actor_body_id_mismatch");
              return "with " + action.describe();
            }));
    runner.check(
        GROUP,
        "a human Contribution crediting only the agent is refused with invalid_contributor_refs",
        () -> {
          String session = live.newSession();
          ChainCursor at = live.cursor(session);
          ObjectNode note = live.noteEvent(session, at);
          expectSuccess(live.appendEvent(session, at, note));
          ObjectNode credit =
              SampleRecords.contribution(
                  live.id("contribution"),
                  session,
                  live.agentWorker,
                  live.agent,
                  note.path("id").asText(),
                  live.now());
          credit.put("contributor_type", "human");
          expectRefusal(
              send(live, session, "recordContribution", live.human, credit),
              "invalid_contributor_refs");
          return null;
        });
    runner.check(
        GROUP,
        "a PolicyDecision id of another WorkSession is refused with invalid_transition",
        () -> {
          String first = live.newSession();
          String second = live.newSession();
          ObjectNode decision = live.decision(first, live.agent);
          post(live, first, "recordPolicyDecision", live.agent, decision);
          ObjectNode reused = decision.deepCopy();
          reused.put("work_session_id", second);
          expectRefusal(
              send(live, second, "recordPolicyDecision", live.agent, reused), "invalid_transition");
          return null;
        });
    runner.check(
        GROUP,
        "an agent action under a new decision naming an approved Request is refused with"
            + " approval_scope_mismatch",
        live.suitePolicy.hinted(
            () -> {
              PolicyActions.Action action = reviewable(live);
              String session = live.newSession();
              String decision = live.id("pd");
              String request = live.id("req");
              String review = live.id("review");
              Instant expires = live.instant().plus(Duration.ofMinutes(30));
              reviewRequired(live, session, action, decision, request);
              expectSuccess(
                  request(live, session, action, decision, request, live.humanWorker, expires));
              ChainCursor recorded = live.cursor(session);
              ObjectNode approve =
                  PurposeRecords.review(
                      live,
                      session,
                      review,
                      live.human,
                      live.humanWorker,
                      "request:" + request,
                      "approve");
              approve.set(
                  "approval_scope",
                  PurposeRecords.scope(
                      live, session, request, review, decision, recorded, action, expires));
              post(live, session, "recordReview", live.human, approve);
              String other = live.id("pd");
              post(
                  live,
                  session,
                  "recordPolicyDecision",
                  live.agent,
                  PurposeRecords.reviewRequired(live, session, other, action, request));
              expectRefusal(
                  agentAction(live, session, action.name(), other), "approval_scope_mismatch");
              return "with " + action.describe();
            }));
    runner.check(
        GROUP,
        "with two Takeovers locked, resuming one still refuses the agent with stale_takeover_epoch",
        () -> {
          String session = live.newSession();
          String first = live.id("takeover");
          post(
              live,
              session,
              "recordTakeover",
              live.human,
              PurposeRecords.takeover(live, session, first, "scope:branch-1", "locked"));
          post(
              live,
              session,
              "recordTakeover",
              live.human,
              PurposeRecords.takeover(
                  live, session, live.id("takeover"), "scope:branch-2", "locked"));
          post(
              live,
              session,
              "recordTakeover",
              live.human,
              PurposeRecords.takeover(live, session, first, "scope:branch-1", "resumed"));
          ChainCursor at = live.cursor(session);
          ObjectNode note =
              EventChain.next(
                  at,
                  SampleRecords.eventDraft(
                      live.id("evt"), session, live.agent, "note.recorded", live.now()));
          expectRefusal(
              live.send(
                  "appendJarvisEvent",
                  session,
                  live.headers("appendJarvisEvent", live.agent, at),
                  note),
              "stale_takeover_epoch");
          return null;
        });
    runner.check(
        GROUP,
        "a Request already past its expires_at is refused with invalid_request_transition",
        live.suitePolicy.hinted(
            () -> {
              PolicyActions.Action action = reviewable(live);
              String session = live.newSession();
              String decision = live.id("pd");
              String request = live.id("req");
              reviewRequired(live, session, action, decision, request);
              expectRefusal(
                  request(
                      live,
                      session,
                      action,
                      decision,
                      request,
                      live.humanWorker,
                      live.instant().minus(Duration.ofMinutes(1))),
                  "invalid_request_transition");
              return "with " + action.describe();
            }));
    runner.check(
        GROUP,
        "appendJarvisEvent of a second genesis event is refused with unauthorized_actor",
        () -> {
          String session = live.newSession();
          ChainCursor at = live.cursor(session);
          String genesis = PurposeDefects.GENESIS_EVENT;
          ObjectNode forged =
              EventChain.next(
                  at,
                  SampleRecords.eventDraft(
                      live.id("evt"), session, live.human, genesis, live.now()));
          expectRefusal(live.appendEvent(session, at, forged), "unauthorized_actor");
          return null;
        });
    runner.check(
        GROUP,
        "appendJarvisEvent of an event an hour old is refused with evidence_after_the_fact",
        () -> {
          String session = live.newSession();
          ChainCursor at = live.cursor(session);
          ObjectNode late =
              EventChain.next(
                  at,
                  SampleRecords.eventDraft(
                      live.id("evt"),
                      session,
                      live.human,
                      "note.recorded",
                      RequestTimestamp.format(live.instant().minus(Duration.ofHours(1)))));
          expectRefusal(live.appendEvent(session, at, late), "evidence_after_the_fact");
          return null;
        });
  }

  /** Two refusals a client cannot tell apart: the same status and ProtocolError but trace_id. */
  private static void expectSameRefusal(Exchange first, Exchange second) {
    JsonNode a = untraced(first.body());
    JsonNode b = untraced(second.body());
    if (first.status() != second.status() || !a.equals(b)) {
      throw new CheckFailure(
          "the refusals differ, so they tell the WorkSessions apart: "
              + first.status()
              + " "
              + a
              + " and "
              + second.status()
              + " "
              + b);
    }
  }

  private static JsonNode untraced(JsonNode body) {
    if (!body.isObject()) {
      return body;
    }
    ObjectNode copy = ((ObjectNode) body).deepCopy();
    copy.remove("trace_id");
    return copy;
  }

  static Exchange send(
      LiveHost live, String session, String operationId, String actor, ObjectNode body) {
    return live.send(
        operationId, session, live.headers(operationId, actor, live.cursor(session)), body);
  }

  private static void post(
      LiveHost live, String session, String operationId, String actor, ObjectNode body) {
    expectSuccess(send(live, session, operationId, actor, body));
  }

  /**
   * The action the checks walk through a Request and its review: one the Policy does not deny (one
   * it reviews, else one it allows); the check is skipped where the Policy offers none.
   */
  static PolicyActions.Action reviewable(LiveHost live) {
    return live.suitePolicy.actions().notDenied();
  }

  /** The agent's {@code review_required} decision on {@code action}, naming its Request. */
  static void reviewRequired(
      LiveHost live, String session, PolicyActions.Action action, String decision, String request) {
    post(
        live,
        session,
        "recordPolicyDecision",
        live.agent,
        PurposeRecords.reviewRequired(live, session, decision, action, request));
  }

  /** The agent's Request for {@code action}, to {@code target}, expiring at {@code expires}. */
  static Exchange request(
      LiveHost live,
      String session,
      PolicyActions.Action action,
      String decision,
      String request,
      String target,
      Instant expires) {
    return send(
        live,
        session,
        "createRequest",
        live.agent,
        PurposeRecords.request(live, session, request, decision, action, target, expires));
  }

  static Exchange agentAction(LiveHost live, String session, String action, String decision) {
    ChainCursor at = live.cursor(session);
    ObjectNode draft =
        SampleRecords.eventDraft(live.id("evt"), session, live.agent, "agent.acted", live.now());
    ObjectNode payload = (ObjectNode) draft.path("payload");
    payload.put("action", action);
    payload.putArray("evidence_refs").add("policy_decision:" + decision);
    return live.send(
        "appendJarvisEvent",
        session,
        live.headers("appendJarvisEvent", live.agent, at),
        EventChain.next(at, draft));
  }
}
