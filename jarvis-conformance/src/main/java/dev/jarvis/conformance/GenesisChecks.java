package dev.jarvis.conformance;

import static dev.jarvis.conformance.ExchangeRules.expectRefusal;
import static dev.jarvis.conformance.ExchangeRules.expectSuccess;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.canonical.Sha256Hash;
import dev.jarvis.core.chain.ChainCursor;

/** Live checks: WorkSession genesis takes revision 0 and the genesis hash, nothing else. */
final class GenesisChecks {

  private GenesisChecks() {}

  static void run(CheckRunner runner, LiveHost live) {
    genesis(runner, live);
  }

  private static void genesis(CheckRunner runner, LiveHost live) {
    String group = "genesis";
    runner.check(
        group,
        "createWorkSession at revision 0 with the genesis hash starts the WorkSession at revision 1",
        () -> {
          live.requireSessions();
          String session = live.id("ws");
          Exchange created =
              live.send(
                  "createWorkSession",
                  null,
                  live.headers("createWorkSession", live.human, ChainCursor.GENESIS),
                  live.sessionBody(session));
          JsonNode record = expectSuccess(created);
          if (record.path("revision").asLong() != 1) {
            throw new CheckFailure(
                "the new WorkSession is at revision " + record.path("revision") + ", not 1");
          }
          if (!record.path("status").asText().equals("active")) {
            throw new CheckFailure(
                "the new WorkSession is " + record.path("status") + ", not active");
          }
          String last = record.path("last_event_hash").asText();
          if (last.isEmpty() || last.equals(Sha256Hash.GENESIS)) {
            throw new CheckFailure("the new WorkSession's last_event_hash is '" + last + "'");
          }
          return live.cursorHeaders(created, new ChainCursor(1, last));
        });
    runner.check(
        group,
        "createWorkSession at revision 1 is refused with stale_work_session_revision",
        () -> {
          expectRefusal(
              live.send(
                  "createWorkSession",
                  null,
                  live.headers(
                      "createWorkSession", live.human, new ChainCursor(1, Sha256Hash.GENESIS)),
                  live.sessionBody(live.id("ws"))),
              "stale_work_session_revision");
          return null;
        });
    runner.check(
        group,
        "createWorkSession with another previous hash is refused with invalid_previous_event_hash",
        () -> {
          expectRefusal(
              live.send(
                  "createWorkSession",
                  null,
                  live.headers(
                      "createWorkSession", live.human, new ChainCursor(0, LiveHost.FOREIGN_HASH)),
                  live.sessionBody(live.id("ws"))),
              "invalid_previous_event_hash");
          return null;
        });
  }
}
