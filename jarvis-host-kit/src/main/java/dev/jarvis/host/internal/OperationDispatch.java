package dev.jarvis.host.internal;

import dev.jarvis.host.HostConfig;
import dev.jarvis.host.ProtocolCall;

/** Sends each checked call to the rules of its operation class and operation. */
public final class OperationDispatch {

  private final IdempotentExecution idempotency;
  private final SessionMutations sessions;
  private final DueRequestExpiry expiry;
  private final GenesisRules genesis;
  private final NonSessionMutations others;
  private final Reads reads;
  private final HostConfig config;

  /**
   * The WorkSession statuses in which a due Request gets its expiry event (not ended, not closed).
   */
  private static final java.util.Set<String> TAKING_EVENTS =
      java.util.Arrays.stream(dev.jarvis.model.WorkSessionStatus.values())
          .map(dev.jarvis.model.WorkSessionStatus::getValue)
          .filter(s -> !WorkSessionLifecycle.TERMINAL.contains(s))
          .filter(s -> !WorkSessionLifecycle.CLOSED.equals(s))
          .collect(java.util.stream.Collectors.toUnmodifiableSet());

  public OperationDispatch(HostConfig config, ProtocolRules rules, ResponseFactory responses) {
    this.config = config;
    Membership membership = new Membership();
    // One lock per WorkSession for mutations and reads alike: a read may write an expiry event.
    KeyedLocks<String> locks = new KeyedLocks<>();
    this.idempotency = new IdempotentExecution(config);
    PrincipalLimitRules limits = new PrincipalLimitRules(config);
    this.expiry = new DueRequestExpiry(config, locks);
    MemberTouch touch = new MemberTouch(config, membership, expiry);
    this.sessions = new SessionMutations(config, rules, responses, locks, limits, touch);
    this.genesis = new GenesisRules(config, membership, limits, rules);
    this.others = new NonSessionMutations(config, membership, responses);
    this.reads = new Reads(config, touch, expiry, responses, locks);
  }

  /**
   * The answer to a call.
   *
   * @throws dev.jarvis.host.ProtocolRefusal when a rule is broken
   */
  public Applied apply(ProtocolCall call) {
    if (call.operation().equals(dev.jarvis.core.requestinbox.RequestInbox.OPERATION)) {
      // Read headers as a WorkSession read has them, but scoped to the caller, not a WorkSession.
      return Applied.read(reads.inbox(call));
    }
    return switch (call.operation().operationClass()) {
      case WORKSESSION_SCOPED_READ, EXPORT_READ -> Applied.read(reads.apply(call));
      case WORKSESSION_GENESIS_MUTATION ->
          idempotency.run(call, commit -> sessions.genesis(call, genesis, commit));
      case WORKSESSION_SCOPED_MUTATION ->
          idempotency.run(call, commit -> sessions.scoped(call, commit));
      case NON_WORKSESSION_MUTATION -> idempotency.run(call, commit -> others.apply(call, commit));
    };
  }

  /**
   * Writes {@code request.expired} for open Requests past their {@code expires_at} by the host
   * clock, at most {@code limit} of them found per call (the earliest first), each WorkSession
   * under its lock as a member's touch would: the expiry sweep.
   *
   * @return the expiry events this host wrote (another instance may have written some first)
   */
  public int expireDueRequests(int limit) {
    java.util.Set<String> sessionIds = new java.util.LinkedHashSet<>();
    for (dev.jarvis.host.StoredRecord request :
        config.stores().records().requestsDue(config.clock().instant(), TAKING_EVENTS, limit)) {
      request.workSessionId().ifPresent(sessionIds::add);
    }
    int written = 0;
    for (String id : sessionIds) {
      written += expiry.expireDueAsHost(id);
    }
    return written;
  }
}
