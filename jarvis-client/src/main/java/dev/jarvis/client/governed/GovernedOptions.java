package dev.jarvis.client.governed;

import dev.jarvis.client.AwaitPolicy;
import dev.jarvis.model.AgentWorker;
import dev.jarvis.model.Policy;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How {@link GovernedAction}s run: immutable, made by {@link #builder()}. One value serves every
 * action of an agent; each option's default is on its builder method.
 */
public final class GovernedOptions {

  /** The event type of an action the work performed, unless set. */
  public static final String PERFORMED_EVENT_TYPE = "agent_action.performed";

  /** The event type of an action whose work threw, unless set. */
  public static final String FAILED_EVENT_TYPE = "agent_action.failed";

  private static final GovernedOptions DEFAULTS = builder().build();

  private final Optional<Policy> policy;
  private final Optional<AgentWorker> agentWorker;
  private final Duration reviewWait;
  private final Optional<Duration> requestExpiresIn;
  private final AwaitPolicy awaitPolicy;
  private final String performedEventType;
  private final String failedEventType;

  private GovernedOptions(Builder b) {
    this.policy = b.policy;
    this.agentWorker = b.agentWorker;
    this.reviewWait = b.reviewWait;
    this.requestExpiresIn = b.requestExpiresIn;
    this.awaitPolicy = b.awaitPolicy;
    this.performedEventType = b.performedEventType;
    this.failedEventType = b.failedEventType;
  }

  /** Every option at its default. */
  public static GovernedOptions defaults() {
    return DEFAULTS;
  }

  /** A builder with every option at its default. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding these options. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.policy = policy;
    b.agentWorker = agentWorker;
    b.reviewWait = reviewWait;
    b.requestExpiresIn = requestExpiresIn;
    b.awaitPolicy = awaitPolicy;
    b.performedEventType = performedEventType;
    b.failedEventType = failedEventType;
    return b;
  }

  /** The WorkSession's Policy, where the agent knows it: evaluated locally first. */
  public Optional<Policy> policy() {
    return policy;
  }

  /** The agent's AgentWorker, where known: its autonomy level applies with the Policy's. */
  public Optional<AgentWorker> agentWorker() {
    return agentWorker;
  }

  /** How long a run waits for the human's answer to a Request before it ends as not approved. */
  public Duration reviewWait() {
    return reviewWait;
  }

  /** How long a Request stays open on the host: as set, else {@link #reviewWait()}. */
  public Duration requestExpiresIn() {
    return requestExpiresIn.orElse(reviewWait);
  }

  /** How the wait watches the WorkSession. */
  public AwaitPolicy awaitPolicy() {
    return awaitPolicy;
  }

  /** The type of the event recording a performed action. */
  public String performedEventType() {
    return performedEventType;
  }

  /** The type of the event recording an action whose work threw. */
  public String failedEventType() {
    return failedEventType;
  }

  @Override
  public String toString() {
    return "GovernedOptions[policy="
        + policy.map(Policy::getId).orElse("-")
        + ", reviewWait="
        + reviewWait
        + ", requestExpiresIn="
        + requestExpiresIn()
        + ", performed="
        + performedEventType
        + ", failed="
        + failedEventType
        + "]";
  }

  /** Builds {@link GovernedOptions}. */
  public static final class Builder {

    private Optional<Policy> policy = Optional.empty();
    private Optional<AgentWorker> agentWorker = Optional.empty();
    private Duration reviewWait = Duration.ofMinutes(30);
    private Optional<Duration> requestExpiresIn = Optional.empty();
    private AwaitPolicy awaitPolicy = AwaitPolicy.DEFAULT;
    private String performedEventType = PERFORMED_EVENT_TYPE;
    private String failedEventType = FAILED_EVENT_TYPE;

    private Builder() {}

    /**
     * The WorkSession's Policy (default: none). With it, each action's decision is the Policy's
     * evaluation ({@code PolicyEvaluator}); without it, the decision starts at {@code allow} and
     * the host's refusal names the stricter result that is recorded instead. Either way the host
     * has the last word: a refusal naming a stricter result is followed.
     */
    public Builder policy(Policy policy) {
      this.policy = Optional.of(Objects.requireNonNull(policy, "policy"));
      return this;
    }

    /** The agent's AgentWorker (default: none), whose autonomy level the Policy's meets. */
    public Builder agentWorker(AgentWorker agentWorker) {
      this.agentWorker = Optional.of(Objects.requireNonNull(agentWorker, "agentWorker"));
      return this;
    }

    /** How long to wait for the human (default 30 minutes); positive. */
    public Builder reviewWait(Duration reviewWait) {
      this.reviewWait = positive(reviewWait, "reviewWait");
      return this;
    }

    /**
     * How long the Request stays open on the host (default: the review wait). Longer than the wait,
     * a re-run with the same action key waits on the same Request again.
     */
    public Builder requestExpiresIn(Duration requestExpiresIn) {
      this.requestExpiresIn = Optional.of(positive(requestExpiresIn, "requestExpiresIn"));
      return this;
    }

    /** How the wait watches the WorkSession (default {@link AwaitPolicy#DEFAULT}). */
    public Builder awaitPolicy(AwaitPolicy awaitPolicy) {
      this.awaitPolicy = Objects.requireNonNull(awaitPolicy, "awaitPolicy");
      return this;
    }

    /**
     * The event type of a performed action (default {@value GovernedOptions#PERFORMED_EVENT_TYPE}).
     */
    public Builder performedEventType(String type) {
      this.performedEventType = nonBlank(type, "performedEventType");
      return this;
    }

    /**
     * The event type of an action whose work threw (default {@value
     * GovernedOptions#FAILED_EVENT_TYPE}).
     */
    public Builder failedEventType(String type) {
      this.failedEventType = nonBlank(type, "failedEventType");
      return this;
    }

    public GovernedOptions build() {
      if (performedEventType.equals(failedEventType)) {
        throw new IllegalArgumentException("the performed and failed event types must differ");
      }
      return new GovernedOptions(this);
    }

    private static Duration positive(Duration d, String name) {
      Objects.requireNonNull(d, name);
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(name + " must be positive");
      }
      return d;
    }

    private static String nonBlank(String s, String name) {
      Objects.requireNonNull(s, name);
      if (s.isBlank()) {
        throw new IllegalArgumentException(name + " must not be blank");
      }
      return s;
    }
  }
}
