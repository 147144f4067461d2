package dev.jarvis.client.tools;

import java.util.Optional;

/**
 * Which Jarvis action a tool call is. Empty means the call has no action it could be governed as
 * (an unknown tool, or arguments the mapping cannot read): it never runs, and the model is told so.
 *
 * <p>{@link ToolActionTable} is the documented default (a per-tool table, everything else refused);
 * any function of the call will do where a table does not fit. A mapping reads the model's
 * arguments, which are untrusted: answer empty rather than guess.
 */
@FunctionalInterface
public interface ToolActionMapping {

  /** The action {@code call} is, or empty if it may not run. */
  Optional<ToolAction> map(ToolCall call);
}
