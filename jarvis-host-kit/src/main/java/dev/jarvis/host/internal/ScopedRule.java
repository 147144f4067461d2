package dev.jarvis.host.internal;

import dev.jarvis.host.ProtocolCall;
import java.util.Set;

/** The protocol rules of one WorkSession-scoped mutation: refuse, or say what it does. */
@FunctionalInterface
interface ScopedRule {

  /**
   * Checks the call against the WorkSession's state (its lock is held) and returns its effect.
   *
   * @throws dev.jarvis.host.ProtocolRefusal when a rule is broken
   */
  Effect apply(ProtocolCall call, SessionView session);

  /**
   * The ids of events this rule asks the WorkSession about ({@link SessionView#hasEvent}): the host
   * reads whether the chain holds them together with the WorkSession, one store read instead of one
   * more per id. Ids not named here are read when asked.
   */
  default Set<String> eventIdsAsked(ProtocolCall call) {
    return Set.of();
  }
}
