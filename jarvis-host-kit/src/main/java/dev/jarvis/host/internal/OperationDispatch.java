package dev.jarvis.host.internal;

import dev.jarvis.host.HostConfig;
import dev.jarvis.host.ProtocolCall;

/** Sends each checked call to the rules of its operation class and operation. */
public final class OperationDispatch {

  private final IdempotentExecution idempotency;
  private final SessionMutations sessions;
  private final GenesisRules genesis;
  private final NonSessionMutations others;
  private final Reads reads;

  public OperationDispatch(HostConfig config, ProtocolRules rules, ResponseFactory responses) {
    Membership membership = new Membership();
    // One lock per WorkSession for mutations and reads alike: a read may write an expiry event.
    KeyedLocks<String> locks = new KeyedLocks<>();
    this.idempotency = new IdempotentExecution(config);
    PrincipalLimitRules limits = new PrincipalLimitRules(config);
    this.sessions = new SessionMutations(config, rules, membership, responses, locks, limits);
    this.genesis = new GenesisRules(config, membership, limits, rules);
    this.others = new NonSessionMutations(config, membership, responses);
    this.reads = new Reads(config, sessions, responses, locks);
  }

  /**
   * The answer to a call.
   *
   * @throws dev.jarvis.host.ProtocolRefusal when a rule is broken
   */
  public Applied apply(ProtocolCall call) {
    return switch (call.operation().operationClass()) {
      case WORKSESSION_SCOPED_READ, EXPORT_READ -> Applied.read(reads.apply(call));
      case WORKSESSION_GENESIS_MUTATION ->
          idempotency.run(call, commit -> sessions.genesis(call, genesis, commit));
      case WORKSESSION_SCOPED_MUTATION ->
          idempotency.run(call, commit -> sessions.scoped(call, commit));
      case NON_WORKSESSION_MUTATION -> idempotency.run(call, commit -> others.apply(call, commit));
    };
  }
}
