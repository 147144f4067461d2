package dev.jarvis.host.internal;

import dev.jarvis.host.HostConfig;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.StoredResponse;
import java.util.Map;

/** Sends each checked call to the rules of its operation class and operation. */
public final class OperationDispatch {

  private final IdempotentExecution idempotency;
  private final SessionMutations sessions;
  private final GenesisRules genesis;
  private final NonSessionMutations others;
  private final Reads reads;

  public OperationDispatch(HostConfig config, ActorAuthority authority, ResponseFactory responses) {
    LearningRules learning = new LearningRules(authority);
    Map<String, ScopedRule> rules =
        Map.of(
            "appendJarvisEvent", new EventAppendRule(authority, config.clock()),
            "recordPolicyDecision", new PolicyDecisionRule(),
            "createRequest", new RequestRule(),
            "recordReview", new ReviewRule(config.clock(), config.stores().records()),
            "recordTakeover", new TakeoverRule(config.clock()),
            "recordContribution", new ContributionRule(),
            "createLearningRecord", learning::learningRecord,
            "createMemoryProposal", learning::memoryProposal,
            "createSkillProposal", learning::skillProposal);
    this.idempotency = new IdempotentExecution(config);
    this.sessions = new SessionMutations(config, authority, responses, rules);
    this.genesis = new GenesisRules(config.stores().records(), config.defaultPolicy().isPresent());
    this.others = new NonSessionMutations(config, responses);
    this.reads = new Reads(config, responses);
  }

  /**
   * The answer to a call.
   *
   * @throws dev.jarvis.host.ProtocolRefusal when a rule is broken
   */
  public StoredResponse apply(ProtocolCall call) {
    return switch (call.operation().operationClass()) {
      case WORKSESSION_SCOPED_READ, EXPORT_READ -> reads.apply(call);
      case WORKSESSION_GENESIS_MUTATION ->
          idempotency.run(call, () -> sessions.genesis(call, genesis));
      case WORKSESSION_SCOPED_MUTATION -> idempotency.run(call, () -> sessions.scoped(call));
      case NON_WORKSESSION_MUTATION -> idempotency.run(call, () -> others.apply(call));
    };
  }
}
