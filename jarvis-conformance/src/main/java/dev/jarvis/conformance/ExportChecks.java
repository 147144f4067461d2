package dev.jarvis.conformance;

import static dev.jarvis.conformance.ExchangeRules.expectRefusal;
import static dev.jarvis.conformance.ExchangeRules.expectSuccess;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.samples.SampleRecords;

/** Live checks: EvidenceManifest export only from a terminal WorkSession. */
final class ExportChecks {

  private ExportChecks() {}

  static void run(CheckRunner runner, LiveHost live) {
    export(runner, live);
  }

  private static void export(CheckRunner runner, LiveHost live) {
    String group = "export";
    runner.check(
        group,
        "exportEvidenceManifest of an active WorkSession is refused with invalid_export_state",
        () -> {
          String session = live.newSession();
          expectRefusal(
              live.send("exportEvidenceManifest", session, live.readHeaders(live.human)),
              "invalid_export_state");
          return null;
        });
    runner.check(
        group,
        "exportEvidenceManifest of a completed WorkSession returns its EvidenceManifest",
        () -> {
          String session = live.newSession();
          ChainCursor at = live.cursor(session);
          ObjectNode note = live.noteEvent(session, at);
          expectSuccess(live.appendEvent(session, at, note));
          at = live.cursor(session);
          ObjectNode contribution =
              SampleRecords.contribution(
                  live.id("contribution"),
                  session,
                  live.agentWorker,
                  live.agent,
                  note.path("id").asText(),
                  live.now());
          expectSuccess(
              live.send(
                  "recordContribution",
                  session,
                  live.headers("recordContribution", live.agent, at),
                  contribution));
          at = live.cursor(session);
          ObjectNode completed =
              EventChain.next(
                  at,
                  SampleRecords.eventDraft(
                      live.id("evt"), session, live.human, "work_session.completed", live.now()));
          expectSuccess(live.appendEvent(session, at, completed));
          JsonNode manifest =
              expectSuccess(
                  live.send("exportEvidenceManifest", session, live.readHeaders(live.human)));
          if (!manifest.path("work_session_id").asText().equals(session)) {
            throw new CheckFailure(
                "the manifest is for WorkSession " + manifest.path("work_session_id"));
          }
          return null;
        });
  }
}
