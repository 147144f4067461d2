package dev.jarvis.core.signature;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.hash.EventHash;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.EdECKey;
import java.util.Base64;
import java.util.Optional;

/**
 * An event's Actor signature ({@code actor_signature}, {@code signing_key_ref}): Ed25519 over the
 * UTF-8 bytes of the event's {@code event_hash} text ({@code sha256:<64 hex>}), written {@code
 * ed25519:} and the 64-byte signature in base64url without padding. The hash leaves both fields out
 * ({@link EventHash#EXCLUDED}), so signing an event does not change its hash, and the signature
 * covers everything the hash covers. A verifier recomputes the hash from the event rather than
 * trusting its {@code event_hash}, so the signature attests the content itself (see {@code
 * docs/protocol-decisions.md}, "Actor-signed events").
 */
public final class EventSignature {

  /** The JDK's name of the algorithm ({@code KeyPairGenerator}, {@code Signature}). */
  public static final String ALGORITHM = "Ed25519";

  /** What every {@code actor_signature} starts with: the algorithm, so another can follow. */
  public static final String PREFIX = "ed25519:";

  /** The event fields of the signature envelope. */
  public static final String SIGNATURE_FIELD = "actor_signature";

  public static final String KEY_REF_FIELD = "signing_key_ref";

  private static final int SIGNATURE_BYTES = 64;

  private EventSignature() {}

  /**
   * The event signed: a copy with {@code actor_signature} over its {@code event_hash} (which it
   * must carry, e.g. from {@code EventChain.next}) and {@code signing_key_ref} the key's id.
   *
   * @throws IllegalArgumentException if the event has no {@code event_hash} text
   */
  public static ObjectNode sign(JsonNode event, SigningKey key) {
    JsonNode hash = event.path("event_hash");
    if (!hash.isTextual()) {
      throw new IllegalArgumentException("an event is signed once its event_hash is set");
    }
    ObjectNode signed = ((ObjectNode) event).deepCopy();
    signed.put(SIGNATURE_FIELD, signatureOf(hash.asText(), key.privateKey()));
    signed.put(KEY_REF_FIELD, key.keyId());
    return signed;
  }

  /** The {@code actor_signature} text of an {@code event_hash} text. */
  public static String signatureOf(String eventHash, PrivateKey key) {
    try {
      Signature signer = Signature.getInstance(ALGORITHM);
      signer.initSign(key);
      signer.update(eventHash.getBytes(StandardCharsets.UTF_8));
      return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(signer.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("an Ed25519 key could not sign", e);
    }
  }

  /**
   * Whether {@code signature} (an {@code actor_signature} text) is {@code key}'s signature of the
   * {@code event_hash} text {@code eventHash}. A text that is not exactly the form {@link
   * #signatureOf} writes (another prefix, padding, a non-canonical base64 spelling, another length)
   * is no signature.
   */
  public static boolean verifies(String eventHash, String signature, PublicKey key) {
    Optional<byte[]> bytes = decode(signature);
    if (bytes.isEmpty()) {
      return false;
    }
    try {
      Signature verifier = Signature.getInstance(ALGORITHM);
      verifier.initVerify(key);
      verifier.update(eventHash.getBytes(StandardCharsets.UTF_8));
      return verifier.verify(bytes.get());
    } catch (GeneralSecurityException e) {
      return false; // a key or signature the provider cannot read verifies nothing
    }
  }

  private static Optional<byte[]> decode(String signature) {
    if (!signature.startsWith(PREFIX)) {
      return Optional.empty();
    }
    String text = signature.substring(PREFIX.length());
    byte[] bytes;
    try {
      bytes = Base64.getUrlDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
    // One spelling per signature: no padding, no stray low bits in the last character.
    if (bytes.length != SIGNATURE_BYTES
        || !Base64.getUrlEncoder().withoutPadding().encodeToString(bytes).equals(text)) {
      return Optional.empty();
    }
    return Optional.of(bytes);
  }

  /** Whether the key is an Ed25519 key (the JDK calls Ed25519 and Ed448 keys alike "EdDSA"). */
  static boolean isEd25519(Key key) {
    return key instanceof EdECKey ed && ALGORITHM.equalsIgnoreCase(ed.getParams().getName());
  }
}
