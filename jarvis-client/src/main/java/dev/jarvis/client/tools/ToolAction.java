package dev.jarvis.client.tools;

import dev.jarvis.model.DataSensitivity;
import dev.jarvis.model.RiskClass;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The Jarvis action one tool call is, as the Policy judges it: what a {@link ToolActionMapping}
 * answers. Immutable; the {@code with…} methods answer changed copies.
 *
 * @param action the action's name as the Policy names it ({@code action})
 * @param target what it acts on ({@code target_ref})
 * @param scope the scope it acts within ({@code scope_ref})
 * @param risk the risk class the agent declares
 * @param dataSensitivity the data sensitivity it declares
 * @param grants the grants it uses ({@code selected_grant_refs}), in order
 */
public record ToolAction(
    String action,
    Optional<String> target,
    Optional<String> scope,
    RiskClass risk,
    Optional<DataSensitivity> dataSensitivity,
    Set<String> grants) {

  public ToolAction {
    Objects.requireNonNull(action, "action");
    if (action.isBlank()) {
      throw new IllegalArgumentException("action must not be blank");
    }
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(risk, "risk");
    Objects.requireNonNull(dataSensitivity, "dataSensitivity");
    grants = Collections.unmodifiableSet(new LinkedHashSet<>(grants));
  }

  /** The action {@code action} at {@code risk}, with no target, scope, sensitivity or grant. */
  public static ToolAction of(String action, RiskClass risk) {
    return new ToolAction(
        action, Optional.empty(), Optional.empty(), risk, Optional.empty(), Set.of());
  }

  /** This action on {@code targetRef}. */
  public ToolAction withTarget(String targetRef) {
    return new ToolAction(action, Optional.of(targetRef), scope, risk, dataSensitivity, grants);
  }

  /** This action within {@code scopeRef}. */
  public ToolAction withScope(String scopeRef) {
    return new ToolAction(action, target, Optional.of(scopeRef), risk, dataSensitivity, grants);
  }

  /** This action at another risk class. */
  public ToolAction withRisk(RiskClass riskClass) {
    return new ToolAction(action, target, scope, riskClass, dataSensitivity, grants);
  }

  /** This action declaring {@code sensitivity}. */
  public ToolAction withDataSensitivity(DataSensitivity sensitivity) {
    return new ToolAction(action, target, scope, risk, Optional.of(sensitivity), grants);
  }

  /** This action also using {@code grantRef}. */
  public ToolAction withGrant(String grantRef) {
    Set<String> more = new LinkedHashSet<>(grants);
    more.add(Objects.requireNonNull(grantRef, "grantRef"));
    return new ToolAction(action, target, scope, risk, dataSensitivity, more);
  }
}
