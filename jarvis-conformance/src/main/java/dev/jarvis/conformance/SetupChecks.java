package dev.jarvis.conformance;

import static dev.jarvis.conformance.ExchangeRules.expectSuccess;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.sample.SampleRecords;

/**
 * Live checks: the suite registers its own Workers and Actors, each under the run's prefix, and no
 * other; each result says so, so that the report of a run on a live service shows what it created.
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
