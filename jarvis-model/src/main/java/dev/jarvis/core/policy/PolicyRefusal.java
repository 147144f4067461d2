package dev.jarvis.core.policy;

import dev.jarvis.model.PolicyDecisionResult;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a host's refusal of a too-permissive PolicyDecision ({@code review_required} or {@code
 * policy_denied} at {@code /result}) names the rule that decided and the most permissive result the
 * Policy allows, so that a client can record that result instead.
 *
 * <p>The spec's {@code ProtocolError} has no member for either and admits none ({@code
 * additionalProperties: false}), so both travel in its {@code reason}, in one fixed clause: {@code
 * The Policy allows at most <result> (rule <JSON Pointer>).} (docs/protocol-decisions.md, "A
 * refusal names its rule"). The rest of the reason is free text for a person.
 *
 * @param ceiling the most permissive result the Policy allows
 * @param rule the JSON Pointer into the Policy of the rule that decided (or another pointer {@link
 *     PolicyEvaluation#rule()} documents)
 */
public record PolicyRefusal(PolicyDecisionResult ceiling, String rule) {

  private static final Pattern CLAUSE =
      Pattern.compile("The Policy allows at most ([a-z_]+) \\(rule ([^ ()]+)\\)\\.");

  public PolicyRefusal {
    Objects.requireNonNull(ceiling, "ceiling");
    Objects.requireNonNull(rule, "rule");
  }

  /** The refusal of a decision more permissive than {@code evaluation}: its result and rule. */
  public static PolicyRefusal of(PolicyEvaluation evaluation) {
    return new PolicyRefusal(evaluation.result(), evaluation.rule());
  }

  /** The clause a refusal's reason carries: {@code The Policy allows at most … (rule …).} */
  public String clause() {
    return "The Policy allows at most " + ceiling.getValue() + " (rule " + rule + ").";
  }

  /**
   * The refusal a reason names, if it carries the clause: the first one, so free text after it
   * cannot override it.
   */
  public static Optional<PolicyRefusal> parse(String reason) {
    if (reason == null) {
      return Optional.empty();
    }
    Matcher m = CLAUSE.matcher(reason);
    if (!m.find()) {
      return Optional.empty();
    }
    try {
      return Optional.of(new PolicyRefusal(PolicyDecisionResult.fromValue(m.group(1)), m.group(2)));
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
