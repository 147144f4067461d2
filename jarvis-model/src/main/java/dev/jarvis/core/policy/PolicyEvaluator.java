package dev.jarvis.core.policy;

import dev.jarvis.model.AgentWorker;
import dev.jarvis.model.AutonomyLevel;
import dev.jarvis.model.DataSensitivity;
import dev.jarvis.model.EscalationRule;
import dev.jarvis.model.Policy;
import dev.jarvis.model.PolicyActionRequest;
import dev.jarvis.model.PolicyActionRule;
import dev.jarvis.model.PolicyDecisionResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The one policy engine: the most permissive result a {@link Policy} allows for a {@link
 * PlannedAction}, with the rule that decided it. Host, client and stub host all judge with it.
 *
 * <p>It reads every field of the Policy the spec gives, in this order; the first that decides ends
 * the evaluation, later steps only make a result stricter:
 *
 * <ol>
 *   <li>{@code risk_classes}: a declared risk class the Policy does not list is {@code deny}.
 *   <li>{@code autonomy_level} of the Policy and of the AgentWorker, the stricter of the two:
 *       {@code observe_only} and {@code propose_only} permit no executed action ({@code deny}).
 *   <li>{@code denied_actions}: {@code deny}.
 *   <li>{@code tool_grants}, {@code memory_grants} and the matching rule's {@code grant_refs}: a
 *       grant the action would use that none of them lists is {@code deny}.
 *   <li>{@code review_required_actions}: {@code review_required}; {@code external_send_rules}:
 *       {@code review_required} (a send leaves the WorkSession and cannot be taken back); {@code
 *       allowed_actions}: {@code allow}, or {@code narrow} where the rule carries {@code
 *       constraints} (the action may go ahead only within them). An action no rule names is {@code
 *       deny}: default deny.
 *   <li>{@code escalation_rules}: a rule applies when its {@code risk_class} is at or below the
 *       declared one, or, without a {@code risk_class}, when its {@code trigger} is the action's
 *       name; {@code deny_action} makes the result {@code deny}, every other required action {@code
 *       review_required}.
 *   <li>A declared {@code data_sensitivity} of {@code restricted} needs a human: at most {@code
 *       review_required}.
 *   <li>{@code autonomy_level} {@code execute_with_review}: every action is at most {@code
 *       review_required}.
 * </ol>
 *
 * <p>Matching is exact: action names and refs are compared code point by code point, so {@code
 * PUBLISH_ANSWER} or {@code publish_answer} with a trailing space is another action, which no rule
 * names. A rule with a {@code scope_ref} that permits ({@code allowed_actions}, {@code
 * external_send_rules}) covers only an action in that very scope; one that restricts ({@code
 * denied_actions}, {@code review_required_actions}) also covers an action that names no scope,
 * since such an action may touch that scope. {@code request_limits} bound Requests, not decisions:
 * the host applies them when a Request is created.
 */
public final class PolicyEvaluator {

  private final Policy policy;
  private final Optional<AutonomyLevel> agentAutonomy;

  private PolicyEvaluator(Policy policy, Optional<AutonomyLevel> agentAutonomy) {
    this.policy = Objects.requireNonNull(policy, "policy");
    this.agentAutonomy = agentAutonomy;
  }

  /** An evaluator of {@code policy} alone. */
  public static PolicyEvaluator of(Policy policy) {
    return new PolicyEvaluator(policy, Optional.empty());
  }

  /** The same Policy, applied to an action of {@code worker}: the stricter autonomy level wins. */
  public PolicyEvaluator forAgent(AgentWorker worker) {
    return new PolicyEvaluator(policy, Optional.ofNullable(worker.getAutonomyLevel()));
  }

  /** The Policy judged. */
  public Policy policy() {
    return policy;
  }

  /**
   * The most permissive result the Policy allows for {@code planned}, the rule that decided, every
   * rule that matched, and why, for an operator and for the agent.
   */
  public PolicyEvaluation evaluate(PlannedAction planned) {
    List<String> matched = new ArrayList<>();
    PolicyEvaluation decided = decide(planned, matched);
    return new PolicyEvaluation(
        decided.result(),
        decided.rule(),
        decided.reason(),
        matched,
        forAgent(decided, planned.action().getAction()));
  }

  /** One sentence for the agent: whether it may act, and if not, what stands in its way. */
  private static String forAgent(PolicyEvaluation decided, String name) {
    return switch (decided.result()) {
      case ALLOW -> name + " is allowed by the Policy.";
      case NARROW ->
          name + " is allowed only within the constraints of the Policy's rule; stay within them.";
      case REVIEW_REQUIRED -> name + " needs a human's approval first: " + decided.reason();
      case DENY -> name + " is not permitted: " + decided.reason();
    };
  }

  /** The evaluation, adding each rule that matches to {@code matched} as it is read. */
  private PolicyEvaluation decide(PlannedAction planned, List<String> matched) {
    PolicyActionRequest action = planned.action();
    String name = action.getAction();
    if (!policy.getRiskClasses().contains(planned.riskClass())) {
      matched.add("/risk_classes");
      return deny(
          "/risk_classes",
          "The Policy knows no risk class " + planned.riskClass().getValue() + ".");
    }
    Autonomy autonomy = autonomy();
    if (autonomy.level() == AutonomyLevel.OBSERVE_ONLY
        || autonomy.level() == AutonomyLevel.PROPOSE_ONLY) {
      matched.add(autonomy.pointer());
      return deny(
          autonomy.pointer(),
          "Autonomy level " + autonomy.level().getValue() + " permits no executed action.");
    }
    Optional<Integer> denied = first(policy.getDeniedActions(), action, Reach.RESTRICTS);
    if (denied.isPresent()) {
      matched.add("/denied_actions/" + denied.get());
      return deny("/denied_actions/" + denied.get(), "The Policy denies " + name + ".");
    }
    Optional<PolicyEvaluation> grants = checkGrants(planned);
    if (grants.isPresent()) {
      matched.add(grants.get().rule());
      return grants.get();
    }
    PolicyEvaluation base = base(action);
    matched.add(base.rule());
    if (base.result() == PolicyDecisionResult.DENY) {
      return base;
    }
    PolicyEvaluation result = base;
    List<EscalationRule> escalations = listOf(policy.getEscalationRules());
    for (int i = 0; i < escalations.size(); i++) {
      EscalationRule rule = escalations.get(i);
      if (!escalates(rule, planned)) {
        continue;
      }
      String pointer = "/escalation_rules/" + i;
      matched.add(pointer);
      if (rule.getRequiredAction() == EscalationRule.RequiredActionEnum.DENY_ACTION) {
        return deny(pointer, "Escalation rule " + rule.getTrigger() + " denies the action.");
      }
      result =
          atMost(
              result,
              PolicyDecisionResult.REVIEW_REQUIRED,
              pointer,
              "Escalation rule "
                  + rule.getTrigger()
                  + " requires "
                  + rule.getRequiredAction().getValue()
                  + ".");
    }
    if (planned.dataSensitivity().filter(DataSensitivity.RESTRICTED::equals).isPresent()) {
      matched.add("/data_sensitivity");
      result =
          atMost(
              result,
              PolicyDecisionResult.REVIEW_REQUIRED,
              "/data_sensitivity",
              "Restricted data needs a human's review.");
    }
    if (autonomy.level() == AutonomyLevel.EXECUTE_WITH_REVIEW) {
      matched.add(autonomy.pointer());
      result =
          atMost(
              result,
              PolicyDecisionResult.REVIEW_REQUIRED,
              autonomy.pointer(),
              "Autonomy level execute_with_review makes every action review-required.");
    }
    return result;
  }

  /** The result of the action lists alone. */
  private PolicyEvaluation base(PolicyActionRequest action) {
    String name = action.getAction();
    Optional<Integer> reviewed = first(policy.getReviewRequiredActions(), action, Reach.RESTRICTS);
    if (reviewed.isPresent()) {
      return new PolicyEvaluation(
          PolicyDecisionResult.REVIEW_REQUIRED,
          "/review_required_actions/" + reviewed.get(),
          "The Policy requires a human's review for " + name + ".");
    }
    Optional<Integer> send = first(policy.getExternalSendRules(), action, Reach.PERMITS);
    if (send.isPresent()) {
      return new PolicyEvaluation(
          PolicyDecisionResult.REVIEW_REQUIRED,
          "/external_send_rules/" + send.get(),
          name + " sends outside the WorkSession; a human reviews it first.");
    }
    List<PolicyActionRule> allowed = listOf(policy.getAllowedActions());
    Optional<Integer> allow = first(allowed, action, Reach.PERMITS);
    if (allow.isEmpty()) {
      return deny("/allowed_actions", "No rule of the Policy allows " + name + ": default deny.");
    }
    boolean constrained = !listOf(allowed.get(allow.get()).getConstraints()).isEmpty();
    return new PolicyEvaluation(
        constrained ? PolicyDecisionResult.NARROW : PolicyDecisionResult.ALLOW,
        "/allowed_actions/" + allow.get(),
        constrained
            ? "The Policy allows " + name + " only within the rule's constraints."
            : "The Policy allows " + name + ".");
  }

  /** A grant the action would use that the Policy does not give is a deny. */
  private Optional<PolicyEvaluation> checkGrants(PlannedAction planned) {
    if (planned.grantRefs().isEmpty()) {
      return Optional.empty();
    }
    Set<String> given = new HashSet<>();
    given.addAll(setOf(policy.getToolGrants()));
    given.addAll(setOf(policy.getMemoryGrants()));
    for (List<PolicyActionRule> rules :
        List.of(
            listOf(policy.getAllowedActions()),
            listOf(policy.getReviewRequiredActions()),
            listOf(policy.getExternalSendRules()))) {
      for (PolicyActionRule rule : rules) {
        if (Reach.PERMITS.covers(rule, planned.action())) {
          given.addAll(setOf(rule.getGrantRefs()));
        }
      }
    }
    for (String grant : planned.grantRefs()) {
      if (!given.contains(grant)) {
        return Optional.of(deny("/tool_grants", "The Policy grants no " + grant + "."));
      }
    }
    return Optional.empty();
  }

  private static boolean escalates(EscalationRule rule, PlannedAction planned) {
    if (rule.getRiskClass() != null) {
      // The generated enum keeps the spec's order, lowest risk first.
      return planned.riskClass().ordinal() >= rule.getRiskClass().ordinal();
    }
    return rule.getTrigger().equals(planned.action().getAction());
  }

  /** The stricter autonomy level (the generated enum keeps the spec's order, strictest first). */
  private Autonomy autonomy() {
    AutonomyLevel own = policy.getAutonomyLevel();
    if (agentAutonomy.isPresent() && agentAutonomy.get().ordinal() < own.ordinal()) {
      return new Autonomy(agentAutonomy.get(), "/agent_worker/autonomy_level");
    }
    return new Autonomy(own, "/autonomy_level");
  }

  /** The index of the first rule of {@code rules} that covers {@code action}. */
  private static Optional<Integer> first(
      List<PolicyActionRule> rules, PolicyActionRequest action, Reach reach) {
    List<PolicyActionRule> list = listOf(rules);
    for (int i = 0; i < list.size(); i++) {
      if (reach.covers(list.get(i), action)) {
        return Optional.of(i);
      }
    }
    return Optional.empty();
  }

  private static PolicyEvaluation atMost(
      PolicyEvaluation current, PolicyDecisionResult cap, String rule, String reason) {
    if (PolicyEvaluation.permissiveness(current.result()) <= PolicyEvaluation.permissiveness(cap)) {
      return current;
    }
    return new PolicyEvaluation(cap, rule, reason);
  }

  private static PolicyEvaluation deny(String rule, String reason) {
    return new PolicyEvaluation(PolicyDecisionResult.DENY, rule, reason);
  }

  private static <T> List<T> listOf(List<T> list) {
    return list == null ? List.of() : list;
  }

  private static <T> Set<T> setOf(Set<T> set) {
    return set == null ? Set.of() : set;
  }

  private record Autonomy(AutonomyLevel level, String pointer) {}

  /** How far a rule with a {@code scope_ref} reaches. */
  private enum Reach {
    /** A rule that lets an action go ahead covers only actions in its very scope. */
    PERMITS,
    /** A rule that holds an action back also covers an action that names no scope. */
    RESTRICTS;

    boolean covers(PolicyActionRule rule, PolicyActionRequest action) {
      if (!rule.getAction().equals(action.getAction())) {
        return false;
      }
      if (rule.getScopeRef() == null) {
        return true;
      }
      if (action.getScopeRef() == null) {
        return this == RESTRICTS;
      }
      return rule.getScopeRef().equals(action.getScopeRef());
    }
  }
}
