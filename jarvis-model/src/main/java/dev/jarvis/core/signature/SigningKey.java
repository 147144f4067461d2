package dev.jarvis.core.signature;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Objects;

/**
 * An Actor's Ed25519 private key and its key id, the {@code signing_key_ref} of every event it
 * signs. Never printed: {@link #toString()} names the key id only.
 *
 * @param keyId the key's id, an {@code OpaqueRef} (1 to 512 characters) the host's key file names
 * @param privateKey an Ed25519 private key
 */
public record SigningKey(String keyId, PrivateKey privateKey) {

  public SigningKey {
    ActorKey.checkKeyId(keyId);
    Objects.requireNonNull(privateKey, "privateKey");
    if (!EventSignature.isEd25519(privateKey)) {
      throw new IllegalArgumentException("a signing key is an Ed25519 key");
    }
  }

  /**
   * A signing key from its PKCS #8 encoding in base64 ({@code PrivateKey.getEncoded()}, as {@code
   * openssl genpkey -algorithm ed25519 -outform DER | base64} writes it).
   *
   * @throws IllegalArgumentException if it is not an Ed25519 private key in that form
   */
  public static SigningKey fromPkcs8(String keyId, String pkcs8Base64) {
    try {
      PrivateKey key =
          KeyFactory.getInstance(EventSignature.ALGORITHM)
              .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(pkcs8Base64)));
      return new SigningKey(keyId, key);
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      // The cause may quote the key material; it stays out of the message and the chain.
      throw new IllegalArgumentException(
          "signing key " + keyId + " is not an Ed25519 private key in base64 PKCS #8");
    }
  }

  /** A fresh Ed25519 key pair from the JDK, for tests and for {@code jarvis-cli}'s key tooling. */
  public static KeyPair generateKeyPair() {
    try {
      return KeyPairGenerator.getInstance(EventSignature.ALGORITHM).generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("every Java 17 runtime has Ed25519", e);
    }
  }

  @Override
  public String toString() {
    return "SigningKey[keyId=" + keyId + "]";
  }
}
