package dev.jarvis.host;

/**
 * Runs inside the store's unit of work of every accepted mutation, with the event it appends: the
 * place for an outbox. What it writes through {@link UnitOfWork#resource} (a JDBC {@code
 * Connection}) commits with the mutation or not at all, so a side effect ("notify the reviewer") is
 * recorded exactly once per accepted call and never for a replay, which commits nothing.
 *
 * <p>It runs once every condition of the mutation held. If it throws, nothing is written and the
 * caller gets a host failure (500). A store may run it again when it retries a transaction that the
 * database aborted (serialization failure); only the run that commits counts. Set it with {@code
 * HostConfig.Builder.commitHook}.
 *
 * <p>The host also appends events of its own, with no call behind them ({@link HostWrittenEvent}: a
 * Request's expiry). They reach {@link #beforeHostCommit}, which does nothing unless overridden: an
 * outbox that must see every event of a chain overrides both methods.
 */
@FunctionalInterface
public interface CommitHook {

  /** Called inside the unit, before it commits. */
  void beforeCommit(AcceptedMutation mutation, UnitOfWork unit) throws Exception;

  /**
   * Called inside the unit of an event the host writes on its own, before it commits. If it throws,
   * the event is not written and the call that found it due is answered as a host failure (500);
   * the next touch of the WorkSession writes it again.
   */
  default void beforeHostCommit(HostWrittenEvent written, UnitOfWork unit) throws Exception {}
}
