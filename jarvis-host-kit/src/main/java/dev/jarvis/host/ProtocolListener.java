package dev.jarvis.host;

/**
 * Told about every call a {@link ProtocolHost} answers, after the answer is decided (and after the
 * mutation committed): for metrics, audit logs and notifications that need not be transactional
 * (for those, see {@link CommitHook}). Each call is reported once, by exactly one method. A
 * listener runs on the request's thread and should return quickly; what it throws is logged and
 * does not change the answer. Set it with {@code HostConfig.Builder.listener}.
 */
public interface ProtocolListener {

  /** A call applied now: a read answered or a mutation committed (its event in the call). */
  default void accepted(HandledCall call) {}

  /** An idempotent retry answered with the first response: nothing happened again. */
  default void replayed(HandledCall call) {}

  /** A refused request, by the guard or by a rule: nothing was written. */
  default void refused(RefusedCall refusal) {}

  /**
   * A failure of the host itself, answered 500 (503 for a store that cannot serve now) with this
   * {@code trace_id} and logged once.
   */
  default void failed(FailedCall failure) {}

  /**
   * An event the host wrote on its own (a Request's expiry), after it committed; reported apart
   * from the call that found it due, which is reported as usual.
   */
  default void hostWrote(HostWrittenEvent written) {}

  /** A listener that ignores everything (the default). */
  ProtocolListener NONE = new ProtocolListener() {};
}
