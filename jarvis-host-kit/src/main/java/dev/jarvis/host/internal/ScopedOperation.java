package dev.jarvis.host.internal;

import dev.jarvis.model.ActorType;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One WorkSession-scoped mutation, declared in one place: the operation, the type of the event it
 * writes, the Actor types it admits and the rule that decides its effect. The engine reads all
 * three from here: {@link ActorAuthority} the admitted types and the event type checked against
 * {@code allowed_event_types}, {@link EventAppendRule} the types no client may append, {@link
 * SessionMutations} the rule.
 *
 * @param operationId the spec's operationId
 * @param eventType the type of the event the host writes; empty when the client's event is appended
 *     as it came (appendJarvisEvent)
 * @param admits the Actor types that may perform it
 * @param rule the operation's protocol rule
 */
record ScopedOperation(
    String operationId, Optional<String> eventType, Set<ActorType> admits, ScopedRule rule) {

  ScopedOperation {
    Objects.requireNonNull(operationId, "operationId");
    Objects.requireNonNull(eventType, "eventType");
    admits = Set.copyOf(admits);
    Objects.requireNonNull(rule, "rule");
  }

  /** An operation any Actor type may perform, writing a host-built event of {@code eventType}. */
  static ScopedOperation writing(String operationId, String eventType, ScopedRule rule) {
    return new ScopedOperation(
        operationId, Optional.of(eventType), EnumSet.allOf(ActorType.class), rule);
  }

  /** The same, admitting only these Actor types. */
  ScopedOperation admitting(ActorType first, ActorType... rest) {
    return new ScopedOperation(operationId, eventType, EnumSet.of(first, rest), rule);
  }
}
