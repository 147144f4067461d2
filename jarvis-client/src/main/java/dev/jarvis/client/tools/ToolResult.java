package dev.jarvis.client.tools;

import dev.jarvis.client.governed.GovernedOutcome;
import java.util.Objects;
import java.util.Optional;

/**
 * How one governed tool call ended, and the text the model is given for it.
 *
 * @param text for the model: the tool's own result where it ran and was recorded; otherwise one
 *     sentence saying that the tool did not run (or ran and failed) and why, never a success
 * @param outcome the governed action's outcome; empty where the call was refused before any action
 *     (no mapping for it, no WorkSession)
 */
public record ToolResult(String text, Optional<GovernedOutcome<String>> outcome) {

  public ToolResult {
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(outcome, "outcome");
  }

  /** Whether the tool ran and the host recorded it: the only result that is the tool's own. */
  public boolean isDone() {
    return outcome.map(GovernedOutcome::isDone).orElse(false);
  }
}
