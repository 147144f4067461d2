package dev.jarvis.client.tools;

import dev.jarvis.client.JarvisClient;
import dev.jarvis.client.governed.ActionReport;
import dev.jarvis.client.governed.GovernedAction;
import dev.jarvis.client.governed.GovernedOptions;
import dev.jarvis.client.governed.GovernedOutcome;
import dev.jarvis.client.governed.Permit;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.model.ApprovalBoundary;
import dev.jarvis.model.ApprovalScope;
import dev.jarvis.model.PolicyActionRequest;
import java.util.Objects;
import java.util.Optional;

/**
 * Runs a model's tool calls as governed actions: the {@link ToolActionMapping} names the action,
 * {@code client.governed(ws)} decides, asks the human where review is required (waiting at most
 * {@link GovernedOptions#reviewWait()}), runs the tool only within the approval and records it.
 * Every end is a {@link ToolResult} whose text the model is given; only a recorded run answers the
 * tool's own result.
 *
 * <p>Fail closed: a call the mapping does not map, a call without a WorkSession, a denial, a wait
 * that ends without an approval and an approval narrower than the call (which the tool, run with
 * the model's own arguments, could not keep to) never run the tool. Immutable and thread-safe.
 */
public final class GovernedTools {

  /** Said to the model for a call that has no WorkSession to be governed in. */
  public static final String NO_WORK_SESSION =
      "Not run: no Jarvis WorkSession is set for this agent, so no tool may run. Tell the human.";

  private final JarvisClient client;
  private final ToolActionMapping mapping;
  private final GovernedOptions options;
  private final boolean keyFromCallId;

  private GovernedTools(Builder b) {
    this.client = b.client;
    this.mapping = b.mapping;
    this.options = b.options;
    this.keyFromCallId = b.keyFromCallId;
  }

  /** A builder for tools run by {@code client} (as its acting Actor). */
  public static Builder builder(JarvisClient client) {
    return new Builder(client);
  }

  /** The mapping from calls to actions. */
  public ToolActionMapping mapping() {
    return mapping;
  }

  /** The options each action runs with (the review wait among them). */
  public GovernedOptions options() {
    return options;
  }

  /**
   * Runs {@code call} in {@code workSessionId} (none: the call is refused), {@code tool} being the
   * tool itself. Blocks while the host decides and, for a reviewed action, until the human answers
   * or the wait ends. Never throws for the host's or the tool's failure.
   */
  public ToolResult call(Optional<String> workSessionId, ToolCall call, ToolWork tool) {
    Objects.requireNonNull(workSessionId, "workSessionId");
    Objects.requireNonNull(call, "call");
    Objects.requireNonNull(tool, "tool");
    if (workSessionId.isEmpty()) {
      return new ToolResult(NO_WORK_SESSION, Optional.empty());
    }
    Optional<ToolAction> mapped = mapOrNothing(call);
    if (mapped.isEmpty()) {
      return new ToolResult(unmapped(call), Optional.empty());
    }
    GovernedAction action = action(workSessionId.get(), call, mapped.get());
    GovernedOutcome<String> outcome =
        action.run(
            permit -> {
              requireExactly(action.planned().action(), permit);
              return tool.run();
            },
            result -> ActionReport.of("Tool " + call.toolName() + " ran."));
    return new ToolResult(textOf(outcome), Optional.of(outcome));
  }

  /** A mapping that throws on the model's call maps it to nothing: the call never runs. */
  private Optional<ToolAction> mapOrNothing(ToolCall call) {
    try {
      return Objects.requireNonNullElse(mapping.map(call), Optional.empty());
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  private GovernedAction action(String workSessionId, ToolCall call, ToolAction mapped) {
    GovernedAction.Builder b =
        client
            .governed(workSessionId, options)
            .action(mapped.action())
            .risk(mapped.risk())
            .grants(mapped.grants());
    mapped.target().ifPresent(b::target);
    mapped.scope().ifPresent(b::scope);
    mapped.dataSensitivity().ifPresent(b::dataSensitivity);
    if (keyFromCallId) {
      call.callId().ifPresent(b::key);
    }
    return b.build();
  }

  /**
   * The tool runs with the model's arguments, so it can keep to an approval only if that approval
   * is for exactly the action asked for: another action, target or scope, or an allowed scope other
   * than the action's own, is narrower than the call and is refused rather than overstepped.
   */
  private static void requireExactly(PolicyActionRequest asked, Permit permit)
      throws ApprovalNarrowerThanCall {
    PolicyActionRequest granted = permit.action();
    boolean same =
        Objects.equals(asked.getAction(), granted.getAction())
            && Objects.equals(asked.getTargetRef(), granted.getTargetRef())
            && Objects.equals(asked.getScopeRef(), granted.getScopeRef());
    boolean withinAsked =
        permit
            .approval()
            .map(ApprovalScope::getAllowedScope)
            .map(ApprovalBoundary::getScopeRef)
            .map(allowed -> allowed.equals(ProtocolRecords.ownScopeRef(asked)))
            .orElse(true);
    if (!same || !withinAsked) {
      throw new ApprovalNarrowerThanCall();
    }
  }

  static String textOf(GovernedOutcome<String> outcome) {
    if (outcome instanceof GovernedOutcome.Done<String> done) {
      return done.result() == null ? "" : done.result();
    }
    if (outcome instanceof GovernedOutcome.Failed<String> failed
        && failed.cause() instanceof ApprovalNarrowerThanCall) {
      return "Not run: the human approved a narrower action than this call asks for (another"
          + " target or scope); call the tool again within what was approved, or ask the human.";
    }
    return outcome.forModel();
  }

  private static String unmapped(ToolCall call) {
    return "Not run: the tool call "
        + call.toolName()
        + " has no Jarvis governance mapping for these arguments, so it may not run. Do not"
        + " retry it as is; choose another way or ask the human.";
  }

  /** The approval does not cover the call as the model made it; the tool did not run. */
  static final class ApprovalNarrowerThanCall extends Exception {
    private static final long serialVersionUID = 1L;

    ApprovalNarrowerThanCall() {
      super("the approval is narrower than the tool call", null, false, false);
    }
  }

  /** Builds {@link GovernedTools}: a mapping is required (there is no mapping that allows all). */
  public static final class Builder {

    private final JarvisClient client;
    private ToolActionMapping mapping;
    private GovernedOptions options = GovernedOptions.defaults();
    private boolean keyFromCallId = true;

    private Builder(JarvisClient client) {
      this.client = Objects.requireNonNull(client, "client");
    }

    /** Which action each call is. Required. */
    public Builder mapping(ToolActionMapping mapping) {
      this.mapping = Objects.requireNonNull(mapping, "mapping");
      return this;
    }

    /** How each action runs (default {@link GovernedOptions#defaults()}: a 30-minute wait). */
    public Builder options(GovernedOptions options) {
      this.options = Objects.requireNonNull(options, "options");
      return this;
    }

    /**
     * Whether the model's tool-call id is the action key (default yes), so a re-run of the same
     * call after a crash resumes instead of acting twice. Turn it off for a model whose ids repeat
     * within a WorkSession: a repeated id with the same action would read as already done.
     */
    public Builder keyFromCallId(boolean keyFromCallId) {
      this.keyFromCallId = keyFromCallId;
      return this;
    }

    public GovernedTools build() {
      if (mapping == null) {
        throw new IllegalStateException("governed tools need a ToolActionMapping");
      }
      return new GovernedTools(this);
    }
  }
}
