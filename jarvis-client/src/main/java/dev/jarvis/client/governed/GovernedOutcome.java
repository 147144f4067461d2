package dev.jarvis.client.governed;

import dev.jarvis.client.JarvisFailure;
import dev.jarvis.client.RequestResolution;
import dev.jarvis.core.error.JarvisProtocolException;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.PolicyDecision;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * How a {@link GovernedAction} ended. Only {@link Done} means the work ran and the host recorded
 * it; every other outcome says why not, in {@link #forModel()} as a text an agent can hand back to
 * its model.
 *
 * <p><b>Fail closed.</b> A timeout, a cancellation, a lost host or an answer the client could not
 * read is never {@link Done}: it is {@link NotApproved} (the wait for the human ended without an
 * approval) or {@link Failed} (a step of the governance failed, the work threw, or the work ran and
 * its record failed).
 *
 * @param <T> what the work produces
 */
public sealed interface GovernedOutcome<T>
    permits GovernedOutcome.Done,
        GovernedOutcome.Denied,
        GovernedOutcome.NotApproved,
        GovernedOutcome.Failed,
        GovernedOutcome.AlreadyRecorded {

  /** Whether the work ran and the host recorded it ({@link Done}). */
  default boolean isDone() {
    return this instanceof Done<T>;
  }

  /**
   * A text for the model that chose the tool: what happened and, for every outcome but {@link
   * Done}, that the tool did not run (or did, and how it failed) and why. Protocol ids and reasons
   * only: never a credential, never an exception's message.
   */
  String forModel();

  /**
   * The work ran and the host recorded it.
   *
   * @param result what the work returned (may be {@code null} if the work returns none)
   * @param event the action event as the host stored it, citing the decision
   */
  record Done<T>(T result, JarvisEvent event) implements GovernedOutcome<T> {

    public Done {
      Objects.requireNonNull(event, "event");
    }

    @Override
    public String forModel() {
      String summary = event.getPayload().getSummary();
      return "Done" + (summary == null ? "." : ": " + summary);
    }
  }

  /**
   * The Policy does not permit the action: the recorded decision is {@code deny}. The work did not
   * run.
   *
   * @param decision the recorded {@code deny} decision
   * @param reason why, for the agent (the rule of the Policy that denied it)
   */
  record Denied<T>(PolicyDecision decision, String reason) implements GovernedOutcome<T> {

    public Denied {
      Objects.requireNonNull(decision, "decision");
      Objects.requireNonNull(reason, "reason");
    }

    @Override
    public String forModel() {
      return "Not run. " + reason + " Do not retry it; choose another way or ask the human.";
    }
  }

  /**
   * The action needed a human's approval and has none it can run under: the human denied it or
   * answered otherwise, the Request expired or was closed, the wait timed out or was cancelled, the
   * host was lost while waiting, or the approval came with no use left or after its expiry. The
   * work did not run.
   *
   * @param decision the recorded {@code review_required} decision
   * @param resolution how the wait for the human ended
   * @param reason why the work did not run, for the agent
   */
  record NotApproved<T>(PolicyDecision decision, RequestResolution resolution, String reason)
      implements GovernedOutcome<T> {

    public NotApproved {
      Objects.requireNonNull(decision, "decision");
      Objects.requireNonNull(resolution, "resolution");
      Objects.requireNonNull(reason, "reason");
    }

    @Override
    public String forModel() {
      return "Not run: "
          + decision.getRequestedAction().getAction()
          + " needs a human's approval and has none. "
          + reason;
    }
  }

  /**
   * A step failed. {@link #stage()} says which: before the work ({@link Stage#DECIDE}, {@link
   * Stage#REQUEST}, {@link Stage#AWAIT}) the work did not run; at {@link Stage#WORK} the work threw
   * and {@code event} is the failure event recorded for it (empty if that record failed too, its
   * failure suppressed in {@code cause}); at {@link Stage#RECORD} the work ran and the host did not
   * record it, so whether the action counts as done is unknown: never {@link Done}.
   *
   * @param cause the work's exception, or the client failure ({@link JarvisFailure}) of the step
   * @param event the failure event the host recorded, if any
   * @param stage the step that failed
   */
  record Failed<T>(Throwable cause, Optional<JarvisEvent> event, Stage stage)
      implements GovernedOutcome<T> {

    public Failed {
      Objects.requireNonNull(cause, "cause");
      Objects.requireNonNull(event, "event");
      Objects.requireNonNull(stage, "stage");
    }

    /** Whether the work ran (it threw, or it returned and its record failed). */
    public boolean workRan() {
      return stage == Stage.WORK || stage == Stage.RECORD;
    }

    @Override
    public String forModel() {
      String what = describe(cause);
      return switch (stage) {
        case WORK ->
            "The tool failed ("
                + what
                + (event.isPresent()
                    ? "); the failure is recorded."
                    : "); the host did not record the failure.");
        case RECORD ->
            "The tool ran but the host did not record it ("
                + what
                + "); treat the result as unconfirmed.";
        default -> "Not run: the governance step " + stage.label() + " failed (" + what + ").";
      };
    }

    private static String describe(Throwable cause) {
      Optional<JarvisFailure> failure = JarvisFailure.of(cause);
      // The error id or the failure's kind, never a message: a message may quote anything.
      if (failure.isPresent() && failure.get() instanceof JarvisProtocolException refusal) {
        return refusal.errorId().getValue();
      }
      return failure
          .map(f -> f.kind().name().toLowerCase(Locale.ROOT))
          .orElse(cause.getClass().getSimpleName());
    }
  }

  /**
   * A re-run with an action key whose action the host already records (its action event, or its
   * failure event, is in the WorkSession's log): the work did not run again.
   *
   * @param event the action or failure event recorded by the earlier run
   * @param succeeded whether that event records the work as done (not as failed)
   */
  record AlreadyRecorded<T>(JarvisEvent event, boolean succeeded) implements GovernedOutcome<T> {

    public AlreadyRecorded {
      Objects.requireNonNull(event, "event");
    }

    @Override
    public String forModel() {
      String summary = event.getPayload().getSummary();
      return "Already "
          + (succeeded ? "done" : "attempted and failed")
          + " under this action key; not run again"
          + (summary == null ? "." : ": " + summary);
    }
  }

  /** The steps of a governed action, in order. */
  enum Stage {
    /** Recording the PolicyDecision. */
    DECIDE("decide"),
    /** Opening the Request for a human. */
    REQUEST("request"),
    /** Waiting for the human's answer. */
    AWAIT("await"),
    /** The work itself. */
    WORK("work"),
    /** Appending the action event. */
    RECORD("record");

    private final String label;

    Stage(String label) {
      this.label = label;
    }

    /** A lower-case name for texts. */
    public String label() {
      return label;
    }
  }
}
