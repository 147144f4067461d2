package dev.jarvis.conformance;

import static dev.jarvis.conformance.ExchangeRules.expectSuccess;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.samples.SampleRecords;

/**
 * Live checks: the suite registers its own Workers and Actors, each under the run's prefix, and no
 * other; each result says so, so that the report of a run on a live service shows what it created.
 * Then its human opens a WorkSession under the suite's Policy: a host that does not let it (the
 * Policy not held, or not governing the suite's new human Worker) fails that one check, with what
 * to configure, and the checks that need a WorkSession are skipped rather than failed for it.
 */
final class SetupChecks {

  private SetupChecks() {}

  static void run(CheckRunner runner, LiveHost live) {
    setup(runner, live);
  }

  private static void setup(CheckRunner runner, LiveHost live) {
    String group = "setup";
    runner.check(
        group,
        "registerWorker accepts a human Worker",
        () ->
            register(
                live,
                "registerWorker",
                live.humanWorker,
                SampleRecords.worker(live.humanWorker, "human")));
    runner.check(
        group,
        "registerWorker accepts an agent Worker",
        () ->
            register(
                live,
                "registerWorker",
                live.agentWorker,
                SampleRecords.worker(live.agentWorker, "agent")));
    runner.check(
        group,
        "registerActor accepts a human Actor",
        () ->
            register(
                live,
                "registerActor",
                live.human,
                SampleRecords.actor(live.human, live.humanWorker, "human", live.now())));
    runner.check(
        group,
        "registerActor accepts an agent Actor",
        () ->
            register(
                live,
                "registerActor",
                live.agent,
                SampleRecords.actor(live.agent, live.agentWorker, "agent", live.now())));
    String opens = "createWorkSession by the suite's human under the suite's Policy is accepted";
    boolean opened =
        runner.check(
            group,
            opens,
            () -> {
              try {
                expectSuccess(
                    live.send(
                        "createWorkSession",
                        null,
                        live.headers("createWorkSession", live.human, ChainCursor.GENESIS),
                        live.sessionBody(live.id("ws"))));
              } catch (CheckFailure failure) {
                throw new CheckFailure(failure.getMessage() + "; " + needs(live));
              }
              return "the host holds Policy "
                  + live.policy
                  + " and lets it govern the suite's human Worker "
                  + live.humanWorker;
            });
    if (!opened) {
      live.cannotOpenSessions(
          "the suite cannot open a WorkSession on this host: see the setup check '" + opens + "'");
    }
  }

  /** What the host must do for the suite to open its WorkSessions. */
  private static String needs(LiveHost live) {
    return "the host must hold Policy "
        + live.policy
        + " and let it govern every human Worker, as the suite's is new in each run (serve"
        + " --assign-policy "
        + live.policy
        + "=*, HostConfig governance assignPolicyToEveryHuman, starter"
        + " jarvis.host.policy-assignments, or demo mode), and let the suite's human Actor review";
  }

  private static String register(LiveHost live, String operationId, String id, ObjectNode body) {
    JsonNode answer =
        expectSuccess(
            live.send(operationId, id, live.headers(operationId, live.registrar, null), body));
    if (!answer.path("id").asText().equals(id)) {
      throw new CheckFailure(operationId + " answered a record with id " + answer.path("id"));
    }
    return "registered "
        + id
        + ", the suite's own: it registers nothing outside this run's prefix "
        + live.runPrefix;
  }
}
