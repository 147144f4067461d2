package dev.jarvis.host.internal;

import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.host.ProtocolRefusal;
import dev.jarvis.model.ProtocolErrorId;

/** Short-hands for raising a {@link ProtocolRefusal}. */
final class Refusals {

  private Refusals() {}

  /**
   * The remediation of a record id that is taken: the catalogue's text of each id raised for it
   * (re-read the record's state, resend unchanged, leave the manifest alone) does not lead to a
   * record being written, and an unchanged resend with a new key is refused again.
   */
  static final String ID_TAKEN =
      "Record it under an id of its own: a recorded id is never reused or changed (to retry the"
          + " same request, resend it with its Jarvis-Idempotency-Key).";

  /** A 400 refusal with the catalogue's remediation. */
  static ProtocolRefusal refuse(
      ProtocolErrorId errorId, String objectType, String field, String reason) {
    return new ProtocolRefusal(ProtocolViolation.of(errorId, objectType, field, reason));
  }

  /**
   * A 400 refusal with a remediation of its own, where the catalogue's would not be true at this
   * place (RemediationWalkTest in the reference host follows each).
   */
  static ProtocolRefusal refuse(
      ProtocolErrorId errorId, String objectType, String field, String reason, String remediation) {
    return new ProtocolRefusal(
        new ProtocolViolation(errorId, objectType, field, reason, remediation));
  }
}
