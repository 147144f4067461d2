package dev.jarvis.client.tools;

/**
 * The tool itself, run by {@link GovernedTools} once the call is permitted: at most once, on the
 * calling thread, with the call's own arguments. Whatever it throws is recorded as a failure event
 * and told to the model as a failure, never as a result.
 */
@FunctionalInterface
public interface ToolWork {

  /** Runs the tool and answers its result text for the model. */
  String run() throws Exception;
}
