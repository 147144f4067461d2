package dev.jarvis.conformance;

import dev.jarvis.core.policy.PlannedAction;
import dev.jarvis.core.policy.PolicyEvaluation;
import dev.jarvis.core.policy.PolicyEvaluator;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.model.AutonomyLevel;
import dev.jarvis.model.EscalationRule;
import dev.jarvis.model.Policy;
import dev.jarvis.model.PolicyActionRequest;
import dev.jarvis.model.PolicyActionRule;
import dev.jarvis.model.PolicyDecisionResult;
import dev.jarvis.model.RiskClass;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The actions the checks send, taken from the Policy the host holds for the suite's WorkSessions
 * and each verified with the SDK's one policy engine ({@link PolicyEvaluator}), so that an action
 * is what the host itself will make of it: {@code scope_ref} (a permitting rule covers only its own
 * scope), risk classes, escalation rules and autonomy level all count. A kind of action the Policy
 * does not offer is a reason to skip the checks that need it ({@link CheckSkipped}), never a
 * failure.
 *
 * <p>The suite's decisions select no grants and declare no data sensitivity, and its agent Worker
 * is its own, new in the run, so no AgentWorker autonomy the host may be configured with applies.
 */
final class PolicyActions {

  /** The {@code target_ref} of every action the suite sends. */
  static final String TARGET = "source:conformance";

  /** The action no Policy names, when the suite does not know the Policy. */
  static final String UNNAMED = "conformance_unnamed_action";

  /**
   * One action as the suite sends it, at a risk class, with what the Policy allows for it there.
   *
   * @param name {@code requested_action.action}
   * @param scopeRef its {@code scope_ref}: the scope of the rule it was taken from, if any
   * @param risk the declared {@code risk_class}
   * @param evaluation what the Policy allows for it; empty when the suite does not know the Policy
   */
  record Action(
      String name,
      Optional<String> scopeRef,
      RiskClass risk,
      Optional<PolicyEvaluation> evaluation) {

    /** The {@code requested_action} of a decision for it. */
    PolicyActionRequest request() {
      return ProtocolRecords.action(name, TARGET, scopeRef.orElse(null));
    }

    /** The result the Policy allows, or {@code deny} where the suite does not know the Policy. */
    PolicyDecisionResult result() {
      return evaluation.map(PolicyEvaluation::result).orElse(PolicyDecisionResult.DENY);
    }

    /**
     * What a report says of it: {@code read_source in scope:s at low risk (allow by
     * /allowed_actions/1)}.
     */
    String describe() {
      return name
          + scopeRef.map(s -> " in " + s).orElse("")
          + " at "
          + risk.getValue()
          + " risk"
          + evaluation.map(e -> " (" + e.result().getValue() + " by " + e.rule() + ")").orElse("");
    }
  }

  /**
   * An action the Policy permits at one risk class and, by an escalation rule, only with review at
   * a higher one it lists.
   */
  record Escalation(Action permitted, Action escalated) {}

  private final String policyId;
  private final Optional<Policy> policy;
  private final Action unnamed;

  private PolicyActions(String policyId, Optional<Policy> policy) {
    this.policyId = policyId;
    this.policy = policy;
    this.unnamed = policy.map(this::unnamedIn).orElse(unknownUnnamed());
  }

  /** The actions of {@code policy}. */
  static PolicyActions of(Policy policy) {
    return new PolicyActions(policy.getId(), Optional.of(policy));
  }

  /** A Policy the suite knows only by its id: only what holds under every Policy can be checked. */
  static PolicyActions unknown(String policyId) {
    return new PolicyActions(policyId, Optional.empty());
  }

  /** Whether the suite knows the Policy's rules. */
  boolean known() {
    return policy.isPresent();
  }

  /**
   * An action an agent may take under the Policy without review ({@code allow}, else {@code
   * narrow}), at the lowest risk class it is permitted at.
   */
  Action permitted() {
    Optional<Action> allow = first(allowedRules(), e -> e == PolicyDecisionResult.ALLOW);
    return allow
        .or(() -> first(allowedRules(), e -> e == PolicyDecisionResult.NARROW))
        .orElseThrow(() -> skip("allows no action without a human's review" + whyNoneAllowed()));
  }

  /** An action the Policy makes {@code review_required}, at the lowest risk class it does so. */
  Action reviewed() {
    List<Candidate> candidates = new ArrayList<>();
    candidates.addAll(candidates(policy().getReviewRequiredActions()));
    candidates.addAll(candidates(policy().getExternalSendRules()));
    candidates.addAll(triggers());
    candidates.addAll(allowedRules());
    return first(candidates, e -> e == PolicyDecisionResult.REVIEW_REQUIRED)
        .orElseThrow(
            () ->
                skip(
                    "makes no action review-required (no review_required_actions or"
                        + " external_send_rules rule, no escalation to review, at any risk class"
                        + " it lists)"));
  }

  /**
   * An action the Policy does not deny: one it makes review-required, else one it permits, for the
   * checks that walk a Request through its review.
   */
  Action notDenied() {
    try {
      return reviewed();
    } catch (CheckSkipped none) {
      try {
        return permitted();
      } catch (CheckSkipped neither) {
        throw skip("neither allows nor reviews any action" + whyNoneAllowed());
      }
    }
  }

  /** An action a rule of the Policy denies (not merely one it does not name). */
  Action denied() {
    List<Candidate> candidates = new ArrayList<>(candidates(policy().getDeniedActions()));
    candidates.addAll(triggers());
    candidates.addAll(allowedRules());
    candidates.addAll(candidates(policy().getReviewRequiredActions()));
    Predicate<Candidate> byARule =
        c -> {
          String rule = c.evaluation().rule();
          return !rule.equals("/allowed_actions") && !rule.equals("/risk_classes");
        };
    return candidates.stream()
        .filter(c -> c.evaluation().result() == PolicyDecisionResult.DENY)
        .filter(byARule)
        .findFirst()
        .map(Candidate::action)
        .orElseThrow(
            () ->
                skip(
                    "denies no action by a rule (no denied_actions, no escalation rule that"
                        + " denies); its default deny is checked with an action it does not name"));
  }

  /**
   * An action no rule of the Policy names, which it denies by default: the permitted action's name
   * in upper case where that is free (a look-alike, held apart by exact matching), else {@value
   * #UNNAMED}. Where the suite does not know the Policy, {@value #UNNAMED}: no Policy names it.
   */
  Action unnamed() {
    return unnamed;
  }

  /** An action the Policy permits at one risk class and escalates to review at a higher one. */
  Escalation escalation() {
    for (Candidate low : allowedRules()) {
      if (!low.evaluation().letsAgentAct()) {
        continue;
      }
      for (RiskClass higher : riskClasses()) {
        if (higher.ordinal() <= low.risk().ordinal()) {
          continue;
        }
        PolicyEvaluation at = evaluate(low.name(), low.scopeRef(), higher);
        if (at.result() == PolicyDecisionResult.REVIEW_REQUIRED
            && at.rule().startsWith("/escalation_rules/")) {
          return new Escalation(
              low.action(), new Action(low.name(), low.scopeRef(), higher, Optional.of(at)));
        }
      }
    }
    throw skip(
        "has no escalation rule that makes an action it allows review-required at a higher risk"
            + " class it lists");
  }

  // ---- how the actions are found ----

  /** One action the Policy names, at one risk class it lists, and what it allows there. */
  private record Candidate(
      String name, Optional<String> scopeRef, RiskClass risk, PolicyEvaluation evaluation) {
    Action action() {
      return new Action(name, scopeRef, risk, Optional.of(evaluation));
    }
  }

  private Policy policy() {
    return policy.orElseThrow(
        () ->
            new CheckSkipped(
                "the suite does not know the rules of Policy "
                    + policyId
                    + ": give its JSON with --policy-file FILE"
                    + " (ConformanceConfig.Builder.policy) to run this check"));
  }

  private CheckSkipped skip(String why) {
    return new CheckSkipped("Policy " + policyId + " " + why);
  }

  private String whyNoneAllowed() {
    AutonomyLevel level = policy().getAutonomyLevel();
    return switch (level) {
      case EXECUTE_WITH_REVIEW ->
          ": its autonomy_level execute_with_review makes every action at most review_required";
      case OBSERVE_ONLY, PROPOSE_ONLY ->
          ": its autonomy_level " + level.getValue() + " permits no executed action";
      default -> "";
    };
  }

  private Optional<Action> first(
      List<Candidate> candidates, Predicate<PolicyDecisionResult> wanted) {
    return candidates.stream()
        .filter(c -> wanted.test(c.evaluation().result()))
        .findFirst()
        .map(Candidate::action);
  }

  private List<Candidate> allowedRules() {
    return candidates(policy().getAllowedActions());
  }

  /** Each rule's action, in its own scope, at each risk class the Policy lists, lowest first. */
  private List<Candidate> candidates(List<PolicyActionRule> rules) {
    List<Candidate> out = new ArrayList<>();
    for (PolicyActionRule rule : rules == null ? List.<PolicyActionRule>of() : rules) {
      Optional<String> scope = Optional.ofNullable(rule.getScopeRef());
      for (RiskClass risk : riskClasses()) {
        out.add(
            new Candidate(rule.getAction(), scope, risk, evaluate(rule.getAction(), scope, risk)));
      }
    }
    return out;
  }

  /** The actions escalation rules name by {@code trigger} (those without a risk class). */
  private List<Candidate> triggers() {
    List<Candidate> out = new ArrayList<>();
    List<EscalationRule> rules = policy().getEscalationRules();
    for (EscalationRule rule : rules == null ? List.<EscalationRule>of() : rules) {
      if (rule.getRiskClass() == null) {
        for (RiskClass risk : riskClasses()) {
          out.add(
              new Candidate(
                  rule.getTrigger(),
                  Optional.empty(),
                  risk,
                  evaluate(rule.getTrigger(), Optional.empty(), risk)));
        }
      }
    }
    return out;
  }

  private List<RiskClass> riskClasses() {
    return policy().getRiskClasses().stream().sorted(Comparator.comparing(Enum::ordinal)).toList();
  }

  private PolicyEvaluation evaluate(String name, Optional<String> scope, RiskClass risk) {
    return PolicyEvaluator.of(policy())
        .evaluate(PlannedAction.of(ProtocolRecords.action(name, TARGET, scope.orElse(null)), risk));
  }

  private Action unnamedIn(Policy policy) {
    Set<String> named = new HashSet<>();
    for (List<PolicyActionRule> rules :
        List.of(
            listOf(policy.getAllowedActions()),
            listOf(policy.getDeniedActions()),
            listOf(policy.getReviewRequiredActions()),
            listOf(policy.getExternalSendRules()))) {
      rules.forEach(r -> named.add(r.getAction()));
    }
    listOf(policy.getEscalationRules()).forEach(r -> named.add(r.getTrigger()));
    List<String> names = new ArrayList<>();
    listOf(policy.getAllowedActions())
        .forEach(r -> names.add(r.getAction().toUpperCase(Locale.ROOT)));
    names.add(UNNAMED);
    for (int n = 2; names.size() < named.size() + 3; n++) {
      names.add(UNNAMED + "_" + n);
    }
    RiskClass risk = riskClasses().isEmpty() ? RiskClass.LOW : riskClasses().get(0);
    String name = names.stream().filter(s -> !named.contains(s)).findFirst().orElseThrow();
    return new Action(
        name, Optional.empty(), risk, Optional.of(evaluate(name, Optional.empty(), risk)));
  }

  private static Action unknownUnnamed() {
    return new Action(UNNAMED, Optional.empty(), RiskClass.LOW, Optional.empty());
  }

  private static <T> List<T> listOf(List<T> list) {
    return list == null ? List.of() : list;
  }
}
