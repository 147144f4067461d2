package dev.jarvis.host.internal;

import dev.jarvis.host.ProtocolCall;

/** The protocol rules of one WorkSession-scoped mutation: refuse, or say what it does. */
@FunctionalInterface
interface ScopedRule {

  /**
   * Checks the call against the WorkSession's state (its lock is held) and returns its effect.
   *
   * @throws dev.jarvis.host.ProtocolRefusal when a rule is broken
   */
  Effect apply(ProtocolCall call, SessionView session);
}
