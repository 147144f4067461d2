package dev.jarvis.client.governed;

/**
 * The work a {@link GovernedAction} runs once it is permitted: the tool call itself. It runs at
 * most once per run, on the calling thread, and only within {@code permit}. Whatever it throws is
 * recorded as a failure event and returned as {@link GovernedOutcome.Failed}; nothing it throws
 * escapes the run.
 *
 * @param <T> what the work produces
 */
@FunctionalInterface
public interface GovernedWork<T> {

  /**
   * Does the work within {@code permit}: where the permit carries an ApprovalScope, only the
   * approved action ({@link Permit#action()}) and before {@link Permit#expiresAt()}.
   */
  T perform(Permit permit) throws Exception;
}
