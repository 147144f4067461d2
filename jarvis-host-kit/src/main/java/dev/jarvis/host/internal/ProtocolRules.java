package dev.jarvis.host.internal;

import static dev.jarvis.host.internal.OperationIds.APPEND_JARVIS_EVENT;
import static dev.jarvis.host.internal.OperationIds.CREATE_LEARNING_RECORD;
import static dev.jarvis.host.internal.OperationIds.CREATE_MEMORY_PROPOSAL;
import static dev.jarvis.host.internal.OperationIds.CREATE_REQUEST;
import static dev.jarvis.host.internal.OperationIds.CREATE_SKILL_PROPOSAL;
import static dev.jarvis.host.internal.OperationIds.CREATE_WORK_SESSION;
import static dev.jarvis.host.internal.OperationIds.RECORD_CONTRIBUTION;
import static dev.jarvis.host.internal.OperationIds.RECORD_POLICY_DECISION;
import static dev.jarvis.host.internal.OperationIds.RECORD_REVIEW;
import static dev.jarvis.host.internal.OperationIds.RECORD_TAKEOVER;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.policy.ReservedNames;
import dev.jarvis.host.HostConfig;
import dev.jarvis.model.ActorType;
import dev.jarvis.model.JarvisEvent;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The WorkSession-scoped operations of this host, each a {@link ScopedOperation}, and what follows
 * from them: the event type an operation appends and the event types only the host writes.
 */
public final class ProtocolRules {

  // The spec document's own vocabulary (OpenAPI keys and the x-jarvis-genesis-state extension),
  // not fields of a protocol record: the generated model has no names for them.
  private static final String OPENAPI_PATHS = "paths";
  private static final String OPENAPI_POST = "post";
  private static final String GENESIS_STATE = "x-jarvis-genesis-state";
  private static final String GENESIS_EVENT_TYPE = "accepted_event_type";
  private static final String GENESIS_STATUS_KEY = "accepted_status";

  /** The genesis event type, read from the spec's {@code x-jarvis-genesis-state}. */
  static final String GENESIS_EVENT =
      genesisState().path(GENESIS_EVENT_TYPE).asText("work_session.created");

  /** The WorkSession status after genesis, read from the spec's {@code x-jarvis-genesis-state}. */
  static final String GENESIS_STATUS = genesisState().path(GENESIS_STATUS_KEY).asText();

  private final Map<String, ScopedOperation> scoped = new LinkedHashMap<>();
  private final Set<String> hostWritten;
  private final ReservedNames reserved;
  // Verdicts on event types already judged: the look-alike check normalises the text code point
  // by code point (NFKC), and clients append the same few types again and again. Bounded, so that
  // a client sending ever new types costs the check and no memory.
  private final ConcurrentHashMap<String, Optional<String>> verdicts = new ConcurrentHashMap<>();

  public ProtocolRules(HostConfig config) {
    LearningRules learning = new LearningRules();
    List<ScopedOperation> operations =
        List.of(
            new ScopedOperation(
                APPEND_JARVIS_EVENT,
                Optional.empty(),
                EnumSet.allOf(ActorType.class),
                new EventSignatureRule(
                    config.actorKeys(),
                    config.clock(),
                    new EventAppendRule(
                        config.clock(), config.timestampTolerance(), this, config.agentActions()))),
            ScopedOperation.writing(
                RECORD_POLICY_DECISION,
                "policy_decision.recorded",
                new PolicyDecisionRule(config.agentActions(), config.governance())),
            ScopedOperation.writing(
                CREATE_REQUEST,
                "request.created",
                new RequestRule(config.clock(), new PrincipalLimitRules(config))),
            ScopedOperation.writing(
                    RECORD_REVIEW, "review.recorded", new ReviewRule(config.clock()))
                .admitting(ActorType.HUMAN),
            ScopedOperation.writing(
                    RECORD_TAKEOVER, "takeover.recorded", new TakeoverRule(config.clock()))
                .admitting(ActorType.HUMAN),
            ScopedOperation.writing(
                RECORD_CONTRIBUTION, "contribution.recorded", new ContributionRule()),
            ScopedOperation.writing(
                CREATE_LEARNING_RECORD, "learning_record.created", learning::learningRecord),
            ScopedOperation.writing(
                CREATE_MEMORY_PROPOSAL, "memory_proposal.created", learning::memoryProposal),
            ScopedOperation.writing(
                CREATE_SKILL_PROPOSAL, "skill_proposal.created", learning::skillProposal));
    Set<String> types = new LinkedHashSet<>();
    types.add(GENESIS_EVENT);
    types.add(RequestLifecycle.EXPIRED_EVENT);
    for (ScopedOperation op : operations) {
      scoped.put(op.operationId(), op);
      op.eventType().ifPresent(types::add);
    }
    this.hostWritten = Set.copyOf(types);
    types.addAll(config.agentActions().reservedEventTypes());
    this.reserved = ReservedNames.of(types);
  }

  /** The scoped operation, if {@code operationId} is one. */
  Optional<ScopedOperation> scoped(String operationId) {
    return Optional.ofNullable(scoped.get(operationId));
  }

  /** The type of the event an operation appends: for appendJarvisEvent, the body's. */
  Optional<String> eventType(String operationId, JsonNode body) {
    if (CREATE_WORK_SESSION.equals(operationId)) {
      return Optional.of(GENESIS_EVENT);
    }
    return scoped(operationId)
        .map(
            op ->
                op.eventType().orElseGet(() -> body.path(JarvisEvent.JSON_PROPERTY_TYPE).asText()));
  }

  /** The Actor types an operation admits; every type for an operation that is not scoped. */
  Set<ActorType> admits(String operationId) {
    if (dev.jarvis.core.requestinbox.RequestInbox.OPERATION.operationId().equals(operationId)) {
      // Only a human answers Requests, so only a human Actor (of a human Worker) has an inbox.
      return EnumSet.of(ActorType.HUMAN);
    }
    return scoped(operationId).map(ScopedOperation::admits).orElse(EnumSet.allOf(ActorType.class));
  }

  /**
   * The event types the host writes itself for accepted mutations (and for expiry). No client may
   * append one: an event of such a type claims a record the host did not accept.
   */
  Set<String> hostWrittenEventTypes() {
    return hostWritten;
  }

  /**
   * The event types no client may append: those the host writes, the host team's own reserved
   * types, and every look-alike of one (see {@link ReservedNames}).
   */
  ReservedNames reservedEventTypes() {
    return reserved;
  }

  /** The reserved type {@code type} is or imitates ({@link #reservedEventTypes}), if any. */
  Optional<String> reservedAs(String type) {
    Optional<String> known = verdicts.get(type);
    if (known != null) {
      return known;
    }
    Optional<String> verdict = reserved.reservedAs(type);
    if (verdicts.size() < REMEMBERED_VERDICTS) {
      verdicts.putIfAbsent(type, verdict);
    }
    return verdict;
  }

  /** How many event types {@link #reservedAs} remembers its verdict on. */
  static final int REMEMBERED_VERDICTS = 1024;

  /** The spec's {@code x-jarvis-genesis-state} of createWorkSession. */
  static JsonNode genesisState() {
    return JarvisSpec.tree()
        .path(OPENAPI_PATHS)
        .path("/work-sessions")
        .path(OPENAPI_POST)
        .path(GENESIS_STATE);
  }
}
