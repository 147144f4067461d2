package dev.jarvis.conformance;

import static dev.jarvis.conformance.ExchangeRules.expectRefusal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;

/**
 * Live checks of who governs a WorkSession (docs/protocol-decisions.md, "Who governs a
 * WorkSession"): an agent does not choose the human it works for, nor the Policy it is judged by.
 * The suite's agent Worker is new in each run, so no host can have been configured to let it serve
 * the suite's human: its WorkSession for that human is refused {@code unauthorized_actor}, the same
 * whatever Policy it names. A Policy the host holds for someone else is {@code missing_policy} to
 * the suite's human; the suite cannot know the host's assignments, so that check runs only with a
 * foreign Policy given ({@code --foreign-policy}). Each runs after the setup check in which the
 * suite's human opened a WorkSession under its own Policy, the positive control.
 */
final class GovernanceChecks {

  private static final String GROUP = "policy";

  private static final String NO_FOREIGN_POLICY =
      "no foreign Policy given (--foreign-policy ID: a Policy the host holds that neither is owned"
          + " by nor assigned to the suite's human Worker); the suite cannot know the host's"
          + " assignments";

  private GovernanceChecks() {}

  static void run(CheckRunner runner, LiveHost live) {
    runner.check(
        GROUP,
        "createWorkSession by the agent for a human Worker it does not serve is refused with"
            + " unauthorized_actor",
        () -> {
          live.requireSessions();
          expectRefusal(create(live, live.id("ws"), live.agent, live.policy), "unauthorized_actor");
          return null;
        });
    runner.check(
        GROUP,
        "createWorkSession by the human under a Policy that does not govern it is refused with"
            + " missing_policy",
        () -> {
          String foreign =
              live.foreignPolicy.orElseThrow(() -> new CheckSkipped(NO_FOREIGN_POLICY));
          live.requireSessions();
          expectRefusal(create(live, live.id("ws"), live.human, foreign), "missing_policy");
          return "under Policy " + foreign;
        });
    runner.check(
        GROUP,
        "createWorkSession by the agent under a Policy that does not govern the human is refused"
            + " as under the human's own, with unauthorized_actor",
        () -> {
          String foreign =
              live.foreignPolicy.orElseThrow(() -> new CheckSkipped(NO_FOREIGN_POLICY));
          live.requireSessions();
          // One WorkSession id for both: refused twice, it stays free, and the answers compare.
          String session = live.id("ws");
          Exchange underForeign = create(live, session, live.agent, foreign);
          Exchange underOwn = create(live, session, live.agent, live.policy);
          expectRefusal(underForeign, "unauthorized_actor");
          expectRefusal(underOwn, "unauthorized_actor");
          if (!untraced(underForeign).equals(untraced(underOwn))) {
            throw new CheckFailure(
                "the refusals differ, so an agent learns of the human's Policies: "
                    + underForeign.bodyExcerpt()
                    + " / "
                    + underOwn.bodyExcerpt());
          }
          return "under Policy " + foreign;
        });
  }

  /** {@code createWorkSession} of the suite's Workers, by {@code creator}, under {@code policy}. */
  private static Exchange create(LiveHost live, String session, String creator, String policy) {
    return live.send(
        "createWorkSession",
        null,
        live.headers("createWorkSession", creator, ChainCursor.GENESIS),
        live.sessionBody(session, creator, policy));
  }

  private static JsonNode untraced(Exchange exchange) {
    JsonNode body = exchange.body().deepCopy();
    if (body instanceof ObjectNode object) {
      object.remove("trace_id");
    }
    return body;
  }
}
