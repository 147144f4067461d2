package dev.jarvis.core.signature;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.time.Instant;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;

/**
 * One public key of an Actor, as the host and an auditor know it.
 *
 * @param keyId the key's id: the {@code signing_key_ref} of the events it signs
 * @param actorId the Actor whose key it is; it verifies that Actor's events only
 * @param publicKey an Ed25519 public key
 * @param revokedAt from when the key signs nothing: an event timestamped at or after it (or, on a
 *     host, appended at or after it) signed with the key is refused; empty: not revoked
 */
public record ActorKey(
    String keyId, String actorId, PublicKey publicKey, Optional<Instant> revokedAt) {

  /** The longest key id: {@code signing_key_ref} is an {@code OpaqueRef}. */
  public static final int MAX_KEY_ID_LENGTH = 512;

  public ActorKey {
    checkKeyId(keyId);
    if (actorId == null || actorId.isEmpty()) {
      throw new IllegalArgumentException("a key names its Actor");
    }
    Objects.requireNonNull(publicKey, "publicKey");
    if (!EventSignature.isEd25519(publicKey)) {
      throw new IllegalArgumentException("key " + keyId + " is not an Ed25519 key");
    }
    Objects.requireNonNull(revokedAt, "revokedAt");
  }

  /** A key that is not revoked. */
  public static ActorKey of(String keyId, String actorId, PublicKey publicKey) {
    return new ActorKey(keyId, actorId, publicKey, Optional.empty());
  }

  /**
   * The public key from its X.509 SubjectPublicKeyInfo encoding in base64 ({@code
   * PublicKey.getEncoded()}; {@code openssl pkey -pubout -outform DER | base64}).
   *
   * @throws IllegalArgumentException if it is not an Ed25519 public key in that form
   */
  public static PublicKey publicKey(String spkiBase64) {
    try {
      return KeyFactory.getInstance(EventSignature.ALGORITHM)
          .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(spkiBase64)));
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      throw new IllegalArgumentException("not an Ed25519 public key in base64 X.509 SPKI", e);
    }
  }

  /** The form {@link #publicKey(String)} reads: base64 of the X.509 SubjectPublicKeyInfo. */
  public static String encode(PublicKey publicKey) {
    return Base64.getEncoder().encodeToString(publicKey.getEncoded());
  }

  /** Whether the key signs nothing at {@code at}. */
  public boolean revokedAt(Instant at) {
    return revokedAt.filter(r -> !at.isBefore(r)).isPresent();
  }

  static void checkKeyId(String keyId) {
    if (keyId == null || keyId.isEmpty() || keyId.length() > MAX_KEY_ID_LENGTH) {
      throw new IllegalArgumentException(
          "a key id is 1 to " + MAX_KEY_ID_LENGTH + " characters (signing_key_ref)");
    }
  }
}
