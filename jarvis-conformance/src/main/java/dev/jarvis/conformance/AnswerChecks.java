package dev.jarvis.conformance;

import java.util.List;
import java.util.Optional;

/**
 * Live checks: what every answer of the run keeps: protocol version, ProtocolError refusals, valid
 * bodies. An answer a capability check judged already (a declared capability's read answered 405,
 * say) is that check's failure and is left out here, so one defect fails one check.
 */
final class AnswerChecks {

  private AnswerChecks() {}

  static void run(CheckRunner runner, LiveHost live) {
    everyAnswer(runner, live);
  }

  private static void everyAnswer(CheckRunner runner, LiveHost live) {
    String group = "answers";
    List<Exchange> all = live.unjudgedExchanges();
    int judged = live.exchanges().size() - all.size();
    String left = judged == 0 ? "" : " (" + judged + " judged by a capability check left out)";
    runner.check(
        group,
        "every answer carries Jarvis-Protocol-Version: v0.1",
        () -> {
          List<String> defects =
              all.stream()
                  .map(ExchangeRules::protocolVersionDefect)
                  .flatMap(Optional::stream)
                  .toList();
          if (!defects.isEmpty()) {
            throw new CheckFailure(
                defects.size() + " of " + all.size() + " answers, first: " + defects.get(0));
          }
          return all.size() + " answers" + left;
        });
    runner.check(
        group,
        "every refusal is HTTP 400 with a valid ProtocolError",
        () -> {
          List<Exchange> refusals = all.stream().filter(e -> e.status() / 100 != 2).toList();
          for (Exchange refusal : refusals) {
            if (refusal.status() != 400 || !ExchangeRules.bodyViolations(refusal).isEmpty()) {
              throw new CheckFailure(
                  refusal.operationId()
                      + " answered "
                      + refusal.status()
                      + " "
                      + refusal.bodyExcerpt());
            }
          }
          return refusals.size() + " refusals" + left;
        });
    runner.check(
        group,
        "every success body is valid against its response schema",
        () -> {
          for (Exchange success : all.stream().filter(e -> e.status() / 100 == 2).toList()) {
            if (!ExchangeRules.bodyViolations(success).isEmpty()) {
              throw new CheckFailure(
                  success.operationId() + ": " + ExchangeRules.bodyViolations(success).get(0));
            }
          }
          return null;
        });
  }
}
