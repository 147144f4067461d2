package dev.jarvis.conformance;

import static dev.jarvis.conformance.ExchangeRules.expectRefusal;
import static dev.jarvis.conformance.ExchangeRules.expectSuccess;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.headers.JarvisHeaders;
import java.util.Map;

/** Live checks: idempotent replay and key mismatch. */
final class IdempotencyChecks {

  private IdempotencyChecks() {}

  static void run(CheckRunner runner, LiveHost live) {
    idempotency(runner, live);
  }

  private static void idempotency(CheckRunner runner, LiveHost live) {
    String group = "idempotency";
    runner.check(
        group,
        "a replay with the same key and body gets the same answer and appends nothing",
        () -> {
          String session = live.newSession();
          ChainCursor at = live.cursor(session);
          Map<String, String> headers = live.headers("recordPolicyDecision", live.agent, at);
          ObjectNode body = live.decision(session, live.agent);
          Exchange first = live.send("recordPolicyDecision", session, headers, body);
          expectSuccess(first);
          ChainCursor afterFirst = live.cursor(session);
          headers.put(JarvisHeaders.REQUEST_TIMESTAMP, live.now());
          Exchange replay = live.send("recordPolicyDecision", session, headers, body);
          if (replay.status() != first.status() || !replay.body().equals(first.body())) {
            throw new CheckFailure(
                "the replay was answered "
                    + replay.status()
                    + " "
                    + replay.bodyExcerpt()
                    + ", the first call "
                    + first.status());
          }
          if (!live.cursor(session).equals(afterFirst)) {
            throw new CheckFailure("the replay moved the WorkSession on");
          }
          return null;
        });
    runner.check(
        group,
        "the same key with another body is refused with duplicate_idempotency_key_mismatch",
        () -> {
          String session = live.newSession();
          Map<String, String> headers =
              live.headers("recordPolicyDecision", live.agent, live.cursor(session));
          expectSuccess(
              live.send(
                  "recordPolicyDecision", session, headers, live.decision(session, live.agent)));
          expectRefusal(
              live.send(
                  "recordPolicyDecision", session, headers, live.decision(session, live.agent)),
              "duplicate_idempotency_key_mismatch");
          return null;
        });
  }
}
