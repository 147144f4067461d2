package dev.jarvis.core.notification;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Objects;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * How a webhook delivery is signed (docs/notifications.md): HMAC-SHA256 with a shared secret over
 * {@code <id>.<timestamp>.<body>}, where id and timestamp are the values of {@link #ID} and {@link
 * #TIMESTAMP} and body the exact bytes sent, written in {@link #SIGNATURE} as {@code v1=<base64>}.
 * The scheme of Standard Webhooks, under Jarvis header names. The secret is never part of any
 * message, log line or {@code toString}.
 */
public final class WebhookSignature {

  /** The notification's id, the same on every attempt of one notification. */
  public static final String ID = "Jarvis-Webhook-Id";

  /** When this attempt was signed: seconds since the epoch, decimal. */
  public static final String TIMESTAMP = "Jarvis-Webhook-Timestamp";

  /** {@code v1=<base64 HMAC-SHA256>}; several, space-separated, while a secret is rotated. */
  public static final String SIGNATURE = "Jarvis-Webhook-Signature";

  /** The version prefix of a signature this SDK writes and accepts. */
  public static final String VERSION = "v1";

  /** The shortest secret accepted: 16 bytes (generate 32 random ones). */
  public static final int MIN_SECRET_BYTES = 16;

  private static final String HMAC = "HmacSHA256";

  private final SecretKeySpec key;

  private WebhookSignature(byte[] secret) {
    Objects.requireNonNull(secret, "secret");
    if (secret.length < MIN_SECRET_BYTES) {
      throw new IllegalArgumentException(
          "a webhook secret must have at least " + MIN_SECRET_BYTES + " bytes");
    }
    this.key = new SecretKeySpec(secret.clone(), HMAC);
  }

  /** A signer and checker with {@code secret}. */
  public static WebhookSignature withSecret(byte[] secret) {
    return new WebhookSignature(secret);
  }

  /** {@link #withSecret(byte[])} of the UTF-8 bytes of {@code secret}, as a secret file holds. */
  public static WebhookSignature withSecret(String secret) {
    return withSecret(secret.getBytes(StandardCharsets.UTF_8));
  }

  /** The value of {@link #SIGNATURE} for one attempt. */
  public String sign(String id, long timestamp, byte[] body) {
    return VERSION + "=" + Base64.getEncoder().encodeToString(mac(id, timestamp, body));
  }

  /**
   * Whether one of the space-separated signatures in {@code header} is this secret's over these
   * values, compared in constant time.
   */
  public boolean matches(String header, String id, long timestamp, byte[] body) {
    byte[] expected = mac(id, timestamp, body);
    boolean found = false;
    for (String candidate : header.trim().split(" +")) {
      int eq = candidate.indexOf('=');
      if (eq < 0 || !VERSION.equals(candidate.substring(0, eq))) {
        continue;
      }
      byte[] given;
      try {
        given = Base64.getDecoder().decode(candidate.substring(eq + 1));
      } catch (IllegalArgumentException e) {
        continue;
      }
      // No early exit: every candidate is compared, each in constant time.
      found |= MessageDigest.isEqual(expected, given);
    }
    return found;
  }

  private byte[] mac(String id, long timestamp, byte[] body) {
    try {
      Mac mac = Mac.getInstance(HMAC);
      mac.init(key);
      mac.update((id + "." + timestamp + ".").getBytes(StandardCharsets.UTF_8));
      return mac.doFinal(body);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
    }
  }

  @Override
  public String toString() {
    return "WebhookSignature[HMAC-SHA256, secret hidden]";
  }
}
