package dev.jarvis.core.policy;

import dev.jarvis.model.PolicyDecisionResult;
import java.util.Objects;

/**
 * What a Policy allows for one planned action: the most permissive result, the rule that decided it
 * and why.
 *
 * @param result the most permissive result the Policy allows
 * @param rule a JSON Pointer into the Policy naming the rule that decided; for an action no rule
 *     names, {@code /allowed_actions}, the list that would have had to name it; two pointers lead
 *     elsewhere: {@code /agent_worker/autonomy_level} (the AgentWorker's level was the stricter)
 *     and {@code /data_sensitivity} (the decision's declared sensitivity)
 * @param reason one sentence for a human
 */
public record PolicyEvaluation(PolicyDecisionResult result, String rule, String reason) {

  public PolicyEvaluation {
    Objects.requireNonNull(result, "result");
    Objects.requireNonNull(rule, "rule");
    Objects.requireNonNull(reason, "reason");
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

  /** deny 0, review_required 1, narrow 2, allow 3. */
  static int permissiveness(PolicyDecisionResult result) {
    return switch (result) {
      case DENY -> 0;
      case REVIEW_REQUIRED -> 1;
      case NARROW -> 2;
      case ALLOW -> 3;
    };
  }
}
