package dev.jarvis.client.governed;

import dev.jarvis.client.JarvisClient;
import dev.jarvis.core.policy.PlannedAction;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.model.DataSensitivity;
import dev.jarvis.model.RiskClass;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * One agent action, run under the WorkSession's Policy from decision to record: made by {@code
 * client.governed(workSessionId)}, it evaluates the action locally where the Policy is known,
 * records the PolicyDecision (never more permissive than the host allows: a refusal naming a
 * stricter result is recorded as that result), opens a Request and waits for the human where review
 * is required, runs the work only when permitted and within the approval's uses and expiry, and
 * appends the action event citing the decision, or a failure event when the work throws.
 *
 * <pre>{@code
 * GovernedOutcome<String> outcome =
 *     agent.governed(ws)
 *         .action("fetch_external_source").target("source:vendor-docs").scope("scope:sources")
 *         .risk(RiskClass.MEDIUM).key(toolCallId)
 *         .build()
 *         .run(permit -> fetch(permit.action().getTargetRef()),
 *              page -> ActionReport.of("Fetched " + page.length() + " characters."));
 * String forTheModel = outcome.forModel();
 * }</pre>
 *
 * <p>Immutable and thread-safe; run it once per action. A re-run with the same {@link #key()} after
 * a crash resumes from the step the host records instead of doing the work twice
 * (docs/governed-actions.md).
 */
public final class GovernedAction {

  private final JarvisClient client;
  private final String workSessionId;
  private final PlannedAction planned;
  private final String key;
  private final boolean resumable;
  private final GovernedOptions options;

  private GovernedAction(Builder b, PlannedAction planned) {
    this.client = b.client;
    this.workSessionId = b.workSessionId;
    this.planned = planned;
    // A key of the caller's may name an action an earlier run began; a fresh one cannot.
    this.resumable = b.key.isPresent();
    this.key = b.key.orElseGet(() -> b.client.records().newId("action"));
    this.options = b.options;
  }

  /**
   * A builder of an action in {@code workSessionId} run by {@code client} (what {@code
   * client.governed(workSessionId, options)} returns).
   */
  public static Builder builder(
      JarvisClient client, String workSessionId, GovernedOptions options) {
    return new Builder(client, workSessionId, options);
  }

  /** The WorkSession the action is in. */
  public String workSessionId() {
    return workSessionId;
  }

  /** The action as the Policy judges it. */
  public PlannedAction planned() {
    return planned;
  }

  /**
   * The action key: the same key (with the same action, by the same Actor, in the same WorkSession)
   * names the same action across runs, and every record id and {@code Idempotency-Key} of its steps
   * derives from it.
   */
  public String key() {
    return key;
  }

  /** The options it runs with. */
  public GovernedOptions options() {
    return options;
  }

  /**
   * Runs {@code work} under the action, recording a summary naming the action. Blocks for as long
   * as the host's answers and, for a reviewed action, the human's (at most {@link
   * GovernedOptions#reviewWait()}). Never throws for a host failure or the work's exception: every
   * end is a {@link GovernedOutcome}.
   */
  public <T> GovernedOutcome<T> run(GovernedWork<T> work) {
    return run(work, result -> ActionReport.of(planned.action().getAction() + " performed."));
  }

  /** {@link #run(GovernedWork)}, recording what {@code report} says of the work's result. */
  public <T> GovernedOutcome<T> run(
      GovernedWork<T> work, Function<? super T, ActionReport> report) {
    Objects.requireNonNull(work, "work");
    Objects.requireNonNull(report, "report");
    return new GovernedRun(client, workSessionId, planned, key, resumable, options)
        .run(work, report);
  }

  @Override
  public String toString() {
    return "GovernedAction[" + planned.action().getAction() + " in " + workSessionId + "]";
  }

  /** Builds a {@link GovernedAction}: the action's name and risk class are required. */
  public static final class Builder {

    private final JarvisClient client;
    private final String workSessionId;
    private GovernedOptions options;
    private String action;
    private String target;
    private String scope;
    private RiskClass risk;
    private Optional<DataSensitivity> sensitivity = Optional.empty();
    private final Set<String> grants = new LinkedHashSet<>();
    private Optional<String> key = Optional.empty();

    private Builder(JarvisClient client, String workSessionId, GovernedOptions options) {
      this.client = Objects.requireNonNull(client, "client");
      this.workSessionId = Objects.requireNonNull(workSessionId, "workSessionId");
      this.options = Objects.requireNonNull(options, "options");
    }

    /** The action's name, exactly as the Policy names it ({@code action}). Required. */
    public Builder action(String name) {
      this.action = Objects.requireNonNull(name, "name");
      return this;
    }

    /** What the action acts on ({@code target_ref}); none by default. */
    public Builder target(String targetRef) {
      this.target = Objects.requireNonNull(targetRef, "targetRef");
      return this;
    }

    /** The scope it acts within ({@code scope_ref}); none by default. */
    public Builder scope(String scopeRef) {
      this.scope = Objects.requireNonNull(scopeRef, "scopeRef");
      return this;
    }

    /** The risk class the agent declares for it. Required. */
    public Builder risk(RiskClass riskClass) {
      this.risk = Objects.requireNonNull(riskClass, "riskClass");
      return this;
    }

    /** The data sensitivity it declares; none by default. */
    public Builder dataSensitivity(DataSensitivity dataSensitivity) {
      this.sensitivity = Optional.of(Objects.requireNonNull(dataSensitivity, "dataSensitivity"));
      return this;
    }

    /** A grant the action uses ({@code selected_grant_refs}); adds to those given before. */
    public Builder grant(String grantRef) {
      grants.add(Objects.requireNonNull(grantRef, "grantRef"));
      return this;
    }

    /** The grants the action uses, replacing those given before. */
    public Builder grants(Set<String> grantRefs) {
      grants.clear();
      grantRefs.forEach(this::grant);
      return this;
    }

    /**
     * The action key (for example the model's tool-call id): a re-run with the same key resumes
     * instead of acting twice. Default: a fresh key from the client's id source, so no run resumes
     * another.
     */
    public Builder key(String actionKey) {
      Objects.requireNonNull(actionKey, "actionKey");
      if (actionKey.isEmpty()) {
        throw new IllegalArgumentException("actionKey must not be empty");
      }
      this.key = Optional.of(actionKey);
      return this;
    }

    /** Other options for this action than the ones the builder was made with. */
    public Builder options(GovernedOptions options) {
      this.options = Objects.requireNonNull(options, "options");
      return this;
    }

    /**
     * The action.
     *
     * @throws IllegalStateException if the name or risk class is missing
     */
    public GovernedAction build() {
      if (action == null || risk == null) {
        throw new IllegalStateException("a governed action needs its action name and risk class");
      }
      PlannedAction planned =
          new PlannedAction(
              ProtocolRecords.action(action, target, scope), risk, sensitivity, grants);
      return new GovernedAction(this, planned);
    }
  }
}
