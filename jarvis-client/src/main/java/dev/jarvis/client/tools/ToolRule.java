package dev.jarvis.client.tools;

import dev.jarvis.model.DataSensitivity;
import dev.jarvis.model.RiskClass;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * One row of a {@link ToolActionTable}: how the calls of one tool map to an action. Immutable; made
 * by {@link #of}, each {@code with}-style method answers a changed copy.
 *
 * <p>By default the action is named after the tool and has no target or scope. A target (or scope)
 * read from an argument is required: a call without that argument (missing, null, blank, or not a
 * scalar) maps to nothing and never runs, so a model cannot widen the action by leaving it out.
 */
public final class ToolRule implements ToolActionMapping {

  // Set only while a rule is made (of, or a copy in with): a rule, once answered, never changes.
  private String toolName;
  private String action;
  private RiskClass risk;
  private RefSource target = RefSource.NONE;
  private RefSource scope = RefSource.NONE;
  private Optional<DataSensitivity> sensitivity = Optional.empty();
  private Set<String> grants = Set.of();

  private ToolRule() {}

  /** The calls of {@code toolName} are the action of the same name at {@code risk}. */
  public static ToolRule of(String toolName, RiskClass risk) {
    Objects.requireNonNull(toolName, "toolName");
    if (toolName.isBlank()) {
      throw new IllegalArgumentException("toolName must not be blank");
    }
    ToolRule rule = new ToolRule();
    rule.toolName = toolName;
    rule.action = toolName;
    rule.risk = Objects.requireNonNull(risk, "risk");
    return rule;
  }

  /** A copy of this rule with {@code change} made to it. */
  private ToolRule with(Consumer<ToolRule> change) {
    ToolRule copy = new ToolRule();
    copy.toolName = toolName;
    copy.action = action;
    copy.risk = risk;
    copy.target = target;
    copy.scope = scope;
    copy.sensitivity = sensitivity;
    copy.grants = grants;
    change.accept(copy);
    return copy;
  }

  /** The tool this rule is for. */
  public String toolName() {
    return toolName;
  }

  /** The action is named {@code actionName} instead of after the tool. */
  public ToolRule action(String actionName) {
    Objects.requireNonNull(actionName, "actionName");
    return with(r -> r.action = actionName);
  }

  /** Every call acts on {@code targetRef}. */
  public ToolRule target(String targetRef) {
    RefSource fixed = RefSource.fixed(Objects.requireNonNull(targetRef, "targetRef"));
    return with(r -> r.target = fixed);
  }

  /**
   * A call acts on {@code prefix} + the value of its argument {@code argument} (for example {@code
   * targetFrom("url", "source:")}); a call without it never runs.
   */
  public ToolRule targetFrom(String argument, String prefix) {
    RefSource from = RefSource.from(argument, prefix);
    return with(r -> r.target = from);
  }

  /** Every call acts within {@code scopeRef}. */
  public ToolRule scope(String scopeRef) {
    RefSource fixed = RefSource.fixed(Objects.requireNonNull(scopeRef, "scopeRef"));
    return with(r -> r.scope = fixed);
  }

  /**
   * A call acts within {@code prefix} + the value of its argument {@code argument}; a call without
   * it never runs.
   */
  public ToolRule scopeFrom(String argument, String prefix) {
    RefSource from = RefSource.from(argument, prefix);
    return with(r -> r.scope = from);
  }

  /** Every call declares {@code dataSensitivity}. */
  public ToolRule dataSensitivity(DataSensitivity dataSensitivity) {
    Objects.requireNonNull(dataSensitivity, "dataSensitivity");
    return with(r -> r.sensitivity = Optional.of(dataSensitivity));
  }

  /** Every call uses {@code grantRef} too. */
  public ToolRule grant(String grantRef) {
    Set<String> more = new LinkedHashSet<>(grants);
    more.add(Objects.requireNonNull(grantRef, "grantRef"));
    return with(r -> r.grants = Collections.unmodifiableSet(more));
  }

  /** The action of {@code call}; empty for another tool's call or a required argument missing. */
  @Override
  public Optional<ToolAction> map(ToolCall call) {
    if (!call.toolName().equals(toolName) || call.argumentsObject().isEmpty()) {
      return Optional.empty();
    }
    Optional<String> targetRef = target.ref(call);
    Optional<String> scopeRef = scope.ref(call);
    if ((target.required() && targetRef.isEmpty()) || (scope.required() && scopeRef.isEmpty())) {
      return Optional.empty();
    }
    return Optional.of(new ToolAction(action, targetRef, scopeRef, risk, sensitivity, grants));
  }

  /**
   * Where a target or scope ref comes from: nowhere, a fixed ref, or an argument of the call
   * (required: a call without it never runs) after a prefix.
   */
  private record RefSource(Optional<String> fixed, Optional<String> argument, String prefix) {

    static final RefSource NONE = new RefSource(Optional.empty(), Optional.empty(), "");

    static RefSource fixed(String ref) {
      return new RefSource(Optional.of(ref), Optional.empty(), "");
    }

    static RefSource from(String argument, String prefix) {
      return new RefSource(
          Optional.empty(),
          Optional.of(Objects.requireNonNull(argument, "argument")),
          Objects.requireNonNull(prefix, "prefix"));
    }

    boolean required() {
      return argument.isPresent();
    }

    Optional<String> ref(ToolCall call) {
      return fixed.isPresent() ? fixed : argument.flatMap(call::argument).map(v -> prefix + v);
    }
  }

  @Override
  public String toString() {
    return "ToolRule[" + toolName + " -> " + action + ", " + risk.getValue() + "]";
  }
}
