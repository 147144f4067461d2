package dev.jarvis.core.policy;

import dev.jarvis.model.DataSensitivity;
import dev.jarvis.model.PolicyActionRequest;
import dev.jarvis.model.PolicyDecision;
import dev.jarvis.model.RiskClass;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * An action an AgentWorker plans, as a Policy judges it: what it wants to do, the risk class and
 * data sensitivity it declares, and the grants it would use.
 *
 * <p>v0.1 lets the Policy fix no risk for an action: where no rule does, the declared {@code
 * risk_class} is what the Policy's {@code risk_classes} and {@code escalation_rules} see. An agent
 * that understates its risk is answerable for it in the recorded decision.
 *
 * @param action the {@code PolicyActionRequest}
 * @param riskClass the declared risk class
 * @param dataSensitivity the declared data sensitivity, if any
 * @param grantRefs the grants the action would use ({@code selected_grant_refs})
 */
public record PlannedAction(
    PolicyActionRequest action,
    RiskClass riskClass,
    Optional<DataSensitivity> dataSensitivity,
    Set<String> grantRefs) {

  public PlannedAction {
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(action.getAction(), "action.action");
    Objects.requireNonNull(riskClass, "riskClass");
    Objects.requireNonNull(dataSensitivity, "dataSensitivity");
    grantRefs = Set.copyOf(grantRefs);
  }

  /** An action at a risk class, with no data sensitivity declared and no grants. */
  public static PlannedAction of(PolicyActionRequest action, RiskClass riskClass) {
    return new PlannedAction(action, riskClass, Optional.empty(), Set.of());
  }

  /** The action a PolicyDecision judges, as it declares it. */
  public static PlannedAction of(PolicyDecision decision) {
    return new PlannedAction(
        decision.getRequestedAction(),
        decision.getRiskClass(),
        Optional.ofNullable(decision.getDataSensitivity()),
        decision.getSelectedGrantRefs() == null ? Set.of() : decision.getSelectedGrantRefs());
  }

  /** The same action declaring {@code sensitivity}. */
  public PlannedAction withDataSensitivity(DataSensitivity sensitivity) {
    return new PlannedAction(action, riskClass, Optional.of(sensitivity), grantRefs);
  }

  /** The same action using {@code grants}. */
  public PlannedAction withGrants(Set<String> grants) {
    return new PlannedAction(action, riskClass, dataSensitivity, grants);
  }
}
