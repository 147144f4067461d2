package dev.jarvis.client.tools;

import dev.jarvis.model.DataSensitivity;
import dev.jarvis.model.RiskClass;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One row of a {@link ToolActionTable}: how the calls of one tool map to an action. Immutable; made
 * by {@link #of}, each {@code with}-style method answers a changed copy.
 *
 * <p>By default the action is named after the tool and has no target or scope. A target (or scope)
 * read from an argument is required: a call without that argument (missing, null, blank, or not a
 * scalar) maps to nothing and never runs, so a model cannot widen the action by leaving it out.
 */
public final class ToolRule implements ToolActionMapping {

  private final String toolName;
  private final String action;
  private final RiskClass risk;
  private final Optional<String> fixedTarget;
  private final Optional<String> targetArgument;
  private final String targetPrefix;
  private final Optional<String> fixedScope;
  private final Optional<String> scopeArgument;
  private final String scopePrefix;
  private final Optional<DataSensitivity> sensitivity;
  private final Set<String> grants;

  private ToolRule(
      String toolName,
      String action,
      RiskClass risk,
      Optional<String> fixedTarget,
      Optional<String> targetArgument,
      String targetPrefix,
      Optional<String> fixedScope,
      Optional<String> scopeArgument,
      String scopePrefix,
      Optional<DataSensitivity> sensitivity,
      Set<String> grants) {
    this.toolName = toolName;
    this.action = action;
    this.risk = risk;
    this.fixedTarget = fixedTarget;
    this.targetArgument = targetArgument;
    this.targetPrefix = targetPrefix;
    this.fixedScope = fixedScope;
    this.scopeArgument = scopeArgument;
    this.scopePrefix = scopePrefix;
    this.sensitivity = sensitivity;
    this.grants = Set.copyOf(grants);
  }

  /** The calls of {@code toolName} are the action of the same name at {@code risk}. */
  public static ToolRule of(String toolName, RiskClass risk) {
    Objects.requireNonNull(toolName, "toolName");
    if (toolName.isBlank()) {
      throw new IllegalArgumentException("toolName must not be blank");
    }
    return new ToolRule(
        toolName,
        toolName,
        Objects.requireNonNull(risk, "risk"),
        Optional.empty(),
        Optional.empty(),
        "",
        Optional.empty(),
        Optional.empty(),
        "",
        Optional.empty(),
        Set.of());
  }

  /** The tool this rule is for. */
  public String toolName() {
    return toolName;
  }

  /** The action is named {@code actionName} instead of after the tool. */
  public ToolRule action(String actionName) {
    Objects.requireNonNull(actionName, "actionName");
    return new ToolRule(
        toolName,
        actionName,
        risk,
        fixedTarget,
        targetArgument,
        targetPrefix,
        fixedScope,
        scopeArgument,
        scopePrefix,
        sensitivity,
        grants);
  }

  /** Every call acts on {@code targetRef}. */
  public ToolRule target(String targetRef) {
    return new ToolRule(
        toolName,
        action,
        risk,
        Optional.of(targetRef),
        Optional.empty(),
        "",
        fixedScope,
        scopeArgument,
        scopePrefix,
        sensitivity,
        grants);
  }

  /**
   * A call acts on {@code prefix} + the value of its argument {@code argument} (for example {@code
   * targetFrom("url", "source:")}); a call without it never runs.
   */
  public ToolRule targetFrom(String argument, String prefix) {
    return new ToolRule(
        toolName,
        action,
        risk,
        Optional.empty(),
        Optional.of(argument),
        Objects.requireNonNull(prefix, "prefix"),
        fixedScope,
        scopeArgument,
        scopePrefix,
        sensitivity,
        grants);
  }

  /** Every call acts within {@code scopeRef}. */
  public ToolRule scope(String scopeRef) {
    return new ToolRule(
        toolName,
        action,
        risk,
        fixedTarget,
        targetArgument,
        targetPrefix,
        Optional.of(scopeRef),
        Optional.empty(),
        "",
        sensitivity,
        grants);
  }

  /**
   * A call acts within {@code prefix} + the value of its argument {@code argument}; a call without
   * it never runs.
   */
  public ToolRule scopeFrom(String argument, String prefix) {
    return new ToolRule(
        toolName,
        action,
        risk,
        fixedTarget,
        targetArgument,
        targetPrefix,
        Optional.empty(),
        Optional.of(argument),
        Objects.requireNonNull(prefix, "prefix"),
        sensitivity,
        grants);
  }

  /** Every call declares {@code dataSensitivity}. */
  public ToolRule dataSensitivity(DataSensitivity dataSensitivity) {
    return new ToolRule(
        toolName,
        action,
        risk,
        fixedTarget,
        targetArgument,
        targetPrefix,
        fixedScope,
        scopeArgument,
        scopePrefix,
        Optional.of(dataSensitivity),
        grants);
  }

  /** Every call uses {@code grantRef} too. */
  public ToolRule grant(String grantRef) {
    Set<String> more = new LinkedHashSet<>(grants);
    more.add(Objects.requireNonNull(grantRef, "grantRef"));
    return new ToolRule(
        toolName,
        action,
        risk,
        fixedTarget,
        targetArgument,
        targetPrefix,
        fixedScope,
        scopeArgument,
        scopePrefix,
        sensitivity,
        more);
  }

  /** The action of {@code call}; empty for another tool's call or a required argument missing. */
  @Override
  public Optional<ToolAction> map(ToolCall call) {
    if (!call.toolName().equals(toolName) || call.argumentsObject().isEmpty()) {
      return Optional.empty();
    }
    Optional<String> target = part(call, fixedTarget, targetArgument, targetPrefix);
    Optional<String> scope = part(call, fixedScope, scopeArgument, scopePrefix);
    if ((targetArgument.isPresent() && target.isEmpty())
        || (scopeArgument.isPresent() && scope.isEmpty())) {
      return Optional.empty();
    }
    return Optional.of(new ToolAction(action, target, scope, risk, sensitivity, grants));
  }

  private static Optional<String> part(
      ToolCall call, Optional<String> fixed, Optional<String> argument, String prefix) {
    if (fixed.isPresent()) {
      return fixed;
    }
    return argument.flatMap(call::argument).map(value -> prefix + value);
  }

  @Override
  public String toString() {
    return "ToolRule[" + toolName + " -> " + action + ", " + risk.getValue() + "]";
  }
}
