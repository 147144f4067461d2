package dev.jarvis.host.internal;

import dev.jarvis.core.signature.ActorKeys;
import dev.jarvis.host.ProtocolCall;
import dev.jarvis.host.ProtocolRefusal;
import java.time.Clock;
import java.util.Set;

/**
 * appendJarvisEvent, before the event's other rules: its Actor signature holds ({@link
 * ActorKeys#refusal}). A signature naming an unknown key, another Actor's key or a revoked one, or
 * one that does not hold over the event's hash, is {@code unauthorized_actor}; so is an unsigned
 * event of an Actor the host's keys say must sign. Events the host writes itself carry no Actor
 * signature and are not judged here.
 */
final class EventSignatureRule implements ScopedRule {

  private final ActorKeys keys;
  private final Clock clock;
  private final ScopedRule then;

  /** Checks the signature, then applies {@code then}. */
  EventSignatureRule(ActorKeys keys, Clock clock, ScopedRule then) {
    this.keys = keys;
    this.clock = clock;
    this.then = then;
  }

  @Override
  public Set<String> eventIdsAsked(ProtocolCall call) {
    return then.eventIdsAsked(call);
  }

  @Override
  public Effect apply(ProtocolCall call, SessionView session) {
    keys.refusal(call.body(), clock.instant())
        .ifPresent(
            violation -> {
              throw new ProtocolRefusal(violation);
            });
    return then.apply(call, session);
  }
}
