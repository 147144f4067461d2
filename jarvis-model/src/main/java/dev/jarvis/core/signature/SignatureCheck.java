package dev.jarvis.core.signature;

import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.model.ProtocolErrorId;
import java.util.Objects;
import java.util.Optional;

/**
 * What the keys say of one event's signature.
 *
 * @param outcome verified, unsigned, or why the signature does not hold
 * @param keyId the {@code signing_key_ref} the event names, if any
 * @param reason what was found, for a report or a refusal
 */
public record SignatureCheck(Outcome outcome, Optional<String> keyId, String reason) {

  /** The protocol object a refusal names. */
  static final String OBJECT = "jarvis_event";

  /** What a refusal of a signature tells its sender to do. */
  public static final String REMEDIATION =
      "Sign the event's event_hash with a key the host holds for the event's Actor"
          + " (actor_signature ed25519:<base64url>, signing_key_ref its key id), or have the"
          + " host's operator add or renew the Actor's key.";

  /** One event's signature, judged. */
  public enum Outcome {
    /** Signed with a key of the event's Actor, and the signature holds over its hash. */
    VERIFIED,
    /** No {@code actor_signature} and no {@code signing_key_ref}. */
    UNSIGNED,
    /**
     * The signature does not hold over the event's recomputed hash, is not in the documented form,
     * or names a key but carries no signature.
     */
    BAD_SIGNATURE,
    /** The {@code signing_key_ref} is none of the known keys, or absent beside a signature. */
    UNKNOWN_KEY,
    /** The key is known, but of another Actor than the event's {@code actor_id}. */
    KEY_OF_ANOTHER_ACTOR,
    /** The key was revoked before the event (or, on a host, before its append). */
    REVOKED_KEY
  }

  /** What a refusal says of a key that is not one of the acting Actor's. */
  static final String UNKNOWN_KEY_REASON =
      "the signing_key_ref names none of the Actors' known keys";

  public SignatureCheck {
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(keyId, "keyId");
    Objects.requireNonNull(reason, "reason");
  }

  /** Whether the signature fails (an unsigned event does not, by itself). */
  public boolean failed() {
    return outcome != Outcome.VERIFIED && outcome != Outcome.UNSIGNED;
  }

  /**
   * The refusal of a failed signature: {@code unauthorized_actor}, at {@code /signing_key_ref} for
   * a key that cannot sign for the Actor, at {@code /actor_signature} otherwise.
   */
  public ProtocolViolation toViolation() {
    String field =
        switch (outcome) {
          case UNKNOWN_KEY, KEY_OF_ANOTHER_ACTOR, REVOKED_KEY -> "/" + EventSignature.KEY_REF_FIELD;
          default -> "/" + EventSignature.SIGNATURE_FIELD;
        };
    // A caller learns no more from a refusal than that the ref is not one of its own keys: an
    // unknown key and another Actor's key read the same, so key ids cannot be mapped to Actors.
    String told = outcome == Outcome.KEY_OF_ANOTHER_ACTOR ? UNKNOWN_KEY_REASON : reason;
    return new ProtocolViolation(
        ProtocolErrorId.UNAUTHORIZED_ACTOR, OBJECT, field, told, REMEDIATION);
  }
}
