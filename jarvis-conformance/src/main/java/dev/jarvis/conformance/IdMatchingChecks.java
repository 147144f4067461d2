package dev.jarvis.conformance;

import static dev.jarvis.conformance.ExchangeRules.expectRefusal;

import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.samples.SampleRecords;

/** Live checks: path/body and Actor/body id matching. */
final class IdMatchingChecks {

  private IdMatchingChecks() {}

  static void run(CheckRunner runner, LiveHost live) {
    idMatching(runner, live);
  }

  private static void idMatching(CheckRunner runner, LiveHost live) {
    String group = "matching";
    runner.check(
        group,
        "registerWorker with a body id other than the path id is refused with path_body_id_mismatch",
        () -> {
          expectRefusal(
              live.send(
                  "registerWorker",
                  live.id("worker-path"),
                  live.headers("registerWorker", live.registrar, null),
                  SampleRecords.worker(live.id("worker-body"), "agent")),
              "path_body_id_mismatch");
          return null;
        });
    runner.check(
        group,
        "recordPolicyDecision for another WorkSession than the path's is refused with path_body_id_mismatch",
        () -> {
          String session = live.newSession();
          expectRefusal(
              live.send(
                  "recordPolicyDecision",
                  session,
                  live.headers("recordPolicyDecision", live.agent, live.cursor(session)),
                  live.decision(live.id("ws-other"), live.agent)),
              "path_body_id_mismatch");
          return null;
        });
    runner.check(
        group,
        "recordPolicyDecision by another Actor than Jarvis-Actor-Id is refused with actor_body_id_mismatch",
        () -> {
          String session = live.newSession();
          expectRefusal(
              live.send(
                  "recordPolicyDecision",
                  session,
                  live.headers("recordPolicyDecision", live.human, live.cursor(session)),
                  live.decision(session, live.agent)),
              "actor_body_id_mismatch");
          return null;
        });
    runner.check(
        group,
        "createWorkSession created by another Actor than Jarvis-Actor-Id is refused with actor_body_id_mismatch",
        () -> {
          expectRefusal(
              live.send(
                  "createWorkSession",
                  null,
                  live.headers("createWorkSession", live.agent, ChainCursor.GENESIS),
                  live.sessionBody(live.id("ws"))),
              "actor_body_id_mismatch");
          return null;
        });
  }
}
