package dev.jarvis.host;

/**
 * A {@link UnitOfWork.Step} failed with a checked exception: the store wrote nothing of the
 * mutation. The host answers it as a host failure (500, logged once with its {@code trace_id}), or
 * 503 when its cause is a {@link StoreUnavailableException}.
 */
public final class UnitOfWorkException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public UnitOfWorkException(Exception cause) {
    super("a step inside the unit of work failed; nothing was written", cause);
  }
}
