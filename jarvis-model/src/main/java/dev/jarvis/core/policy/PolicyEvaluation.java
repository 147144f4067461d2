package dev.jarvis.core.policy;

import dev.jarvis.model.PolicyDecisionResult;
import java.util.List;
import java.util.Objects;

/**
 * What a Policy allows for one planned action, and why: the most permissive result, the rule that
 * decided it, every rule that matched, a reason for an operator and one for the agent.
 *
 * @param result the most permissive result the Policy allows
 * @param rule a JSON Pointer into the Policy naming the rule that decided; for an action no rule
 *     names, {@code /allowed_actions}, the list that would have had to name it; two pointers lead
 *     elsewhere: {@code /agent_worker/autonomy_level} (the AgentWorker's level was the stricter)
 *     and {@code /data_sensitivity} (the decision's declared sensitivity)
 * @param reason one sentence for an operator or Policy author: what the rule says of the action
 * @param matched every rule that matched the action, in the order the evaluator read them ({@link
 *     PolicyEvaluator}), {@code rule} among them; a rule that did not change the result (an
 *     escalation of an action already review-required) is listed too
 * @param forAgent one sentence for the agent: whether it may act, and what to do instead if not
 */
public record PolicyEvaluation(
    PolicyDecisionResult result,
    String rule,
    String reason,
    List<String> matched,
    String forAgent) {

  public PolicyEvaluation {
    Objects.requireNonNull(result, "result");
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(reason, "reason");
    matched = List.copyOf(matched);
    Objects.requireNonNull(forAgent, "forAgent");
    if (!matched.contains(rule)) {
      throw new IllegalArgumentException("the deciding rule " + rule + " is not among " + matched);
    }
  }

  /** An evaluation whose deciding rule is the only one matched, its reason for both readers. */
  public PolicyEvaluation(PolicyDecisionResult result, String rule, String reason) {
    this(result, rule, reason, List.of(rule), reason);
  }

  /**
   * Whether a decision of {@code declared} keeps to this evaluation: a decision may be as strict as
   * the Policy or stricter, never more permissive.
   */
  public boolean admits(PolicyDecisionResult declared) {
    return permissiveness(declared) <= permissiveness(result);
  }

  /** Whether the action may go ahead without a human: {@code allow} or {@code narrow}. */
  public boolean letsAgentAct() {
    return result == PolicyDecisionResult.ALLOW || result == PolicyDecisionResult.NARROW;
  }

  /** The reason for an operator, with the deciding rule: {@code <reason> (rule <pointer>)}. */
  public String forOperator() {
    return reason + " (rule " + rule + ")";
  }

  /**
   * The whole evaluation as lines for a Policy author ({@code jarvis-cli policy explain}): result,
   * deciding rule, every rule matched, and both reasons.
   */
  public String explain() {
    return "result: "
        + result.getValue()
        + "\nrule: "
        + rule
        + "\nmatched: "
        + String.join(", ", matched)
        + "\nfor the operator: "
        + forOperator()
        + "\nfor the agent: "
        + forAgent
        + "\n";
  }

  /** deny 0, review_required 1, narrow 2, allow 3. */
  public static int permissiveness(PolicyDecisionResult result) {
    return switch (result) {
      case DENY -> 0;
      case REVIEW_REQUIRED -> 1;
      case NARROW -> 2;
      case ALLOW -> 3;
    };
  }
}
