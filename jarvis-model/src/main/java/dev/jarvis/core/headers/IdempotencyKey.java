package dev.jarvis.core.headers;

import dev.jarvis.model.ProtocolErrorId;
import java.util.Optional;
import java.util.UUID;

/**
 * {@code Jarvis-Idempotency-Key}: one key per logical mutation, reused only for its retries. The
 * spec asks only for non-empty text; as a header value it is visible US-ASCII (spaces and tabs
 * inside allowed).
 *
 * <p>Absent, empty (after trimming) or holding control or non-ASCII characters is {@code
 * missing_idempotency_key}, with a reason that says which.
 *
 * @param value the key
 */
public record IdempotencyKey(String value) {

  public IdempotencyKey {
    HeaderText.fieldTextDefect(value)
        .ifPresent(
            why -> {
              throw new IllegalArgumentException("not an idempotency key: " + why);
            });
  }

  /** A new random key (a UUID). */
  public static IdempotencyKey random() {
    return new IdempotencyKey(UUID.randomUUID().toString());
  }

  /** Parses the header text; {@code raw} is empty when the header is absent. */
  public static Parsed<IdempotencyKey> parse(Optional<String> raw) {
    return HeaderText.required(
        raw,
        ProtocolErrorId.MISSING_IDEMPOTENCY_KEY,
        JarvisHeaders.IDEMPOTENCY_KEY,
        value ->
            HeaderText.isFieldText(value)
                ? Parsed.accepted(new IdempotencyKey(value))
                : Parsed.refused(
                    HeaderText.malformed(
                        ProtocolErrorId.MISSING_IDEMPOTENCY_KEY,
                        JarvisHeaders.IDEMPOTENCY_KEY,
                        "it contains control or non-ASCII characters")));
  }

  /** The header text. */
  public String headerValue() {
    return value;
  }
}
