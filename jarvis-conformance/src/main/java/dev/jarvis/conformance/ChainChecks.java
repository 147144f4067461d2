package dev.jarvis.conformance;

import static dev.jarvis.conformance.ExchangeRules.expectRefusal;
import static dev.jarvis.conformance.ExchangeRules.expectSuccess;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;

/** Live checks: the revision and hash chain of scoped mutations and appended events. */
final class ChainChecks {

  private ChainChecks() {}

  static void run(CheckRunner runner, LiveHost live) {
    chain(runner, live);
    appendedEvents(runner, live);
  }

  private static void chain(CheckRunner runner, LiveHost live) {
    String group = "chain";
    runner.check(
        group,
        "a scoped mutation at the current cursor advances the revision by one",
        () -> {
          String session = live.newSession();
          ChainCursor before = live.cursor(session);
          Exchange recorded =
              live.send(
                  "recordPolicyDecision",
                  session,
                  live.headers("recordPolicyDecision", live.agent, before),
                  live.decision(session, live.agent));
          expectSuccess(recorded);
          ChainCursor after = live.cursor(session);
          if (after.revision() != before.revision() + 1) {
            throw new CheckFailure(
                "revision went from " + before.revision() + " to " + after.revision());
          }
          if (after.lastEventHash().equals(before.lastEventHash())) {
            throw new CheckFailure("last_event_hash did not change");
          }
          return live.cursorHeaders(recorded, after);
        });
    runner.check(
        group,
        "a scoped mutation at a stale revision is refused with stale_work_session_revision",
        () -> {
          String session = live.newSession();
          ChainCursor first = live.cursor(session);
          expectSuccess(
              live.send(
                  "recordPolicyDecision",
                  session,
                  live.headers("recordPolicyDecision", live.agent, first),
                  live.decision(session, live.agent)));
          expectRefusal(
              live.send(
                  "recordPolicyDecision",
                  session,
                  live.headers("recordPolicyDecision", live.agent, first),
                  live.decision(session, live.agent)),
              "stale_work_session_revision");
          return null;
        });
    runner.check(
        group,
        "a scoped mutation with a wrong previous hash is refused with invalid_previous_event_hash",
        () -> {
          String session = live.newSession();
          ChainCursor wrong =
              new ChainCursor(live.cursor(session).revision(), LiveHost.FOREIGN_HASH);
          expectRefusal(
              live.send(
                  "recordPolicyDecision",
                  session,
                  live.headers("recordPolicyDecision", live.agent, wrong),
                  live.decision(session, live.agent)),
              "invalid_previous_event_hash");
          return null;
        });
  }

  private static void appendedEvents(CheckRunner runner, LiveHost live) {
    String group = "events";
    runner.check(
        group,
        "appendJarvisEvent accepts an event that continues the chain",
        () -> {
          String session = live.newSession();
          ChainCursor at = live.cursor(session);
          ObjectNode event = live.noteEvent(session, at);
          expectSuccess(live.appendEvent(session, at, event));
          ChainCursor after = live.cursor(session);
          if (!after.equals(at.advance(event.path("event_hash").asText()))) {
            throw new CheckFailure(
                "after the event the WorkSession is at " + after + ", not at the event's hash");
          }
          return null;
        });
    runner.check(
        group,
        "appendJarvisEvent refuses an event whose previous_hash is not the last event hash with invalid_previous_event_hash",
        () -> {
          String session = live.newSession();
          ChainCursor at = live.cursor(session);
          ObjectNode event =
              live.noteEvent(session, new ChainCursor(at.revision(), LiveHost.FOREIGN_HASH));
          expectRefusal(live.appendEvent(session, at, event), "invalid_previous_event_hash");
          return null;
        });
    runner.check(
        group,
        "appendJarvisEvent refuses an event whose event_hash does not cover it with invalid_event_hash",
        () -> {
          String session = live.newSession();
          ChainCursor at = live.cursor(session);
          ObjectNode event = live.noteEvent(session, at);
          event.put("event_hash", LiveHost.FOREIGN_HASH);
          expectRefusal(live.appendEvent(session, at, event), "invalid_event_hash");
          return null;
        });
  }
}
