package dev.jarvis.host.internal;

import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.host.ProtocolRefusal;
import dev.jarvis.model.ProtocolErrorId;

/** Short-hands for raising a {@link ProtocolRefusal}. */
final class Refusals {

  private Refusals() {}

  /** A 400 refusal. */
  static ProtocolRefusal refuse(
      ProtocolErrorId errorId, String objectType, String field, String reason) {
    return new ProtocolRefusal(ProtocolViolation.of(errorId, objectType, field, reason));
  }
}
