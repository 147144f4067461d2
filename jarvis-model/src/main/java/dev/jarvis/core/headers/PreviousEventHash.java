package dev.jarvis.core.headers;

import dev.jarvis.model.ProtocolErrorId;
import java.util.Optional;

/**
 * {@code Jarvis-Previous-Event-Hash}: the WorkSession's {@code last_event_hash} as the caller last
 * read it, or {@link #GENESIS} when creating a WorkSession. The header check treats it as opaque
 * non-empty text (the spec's {@code minLength: 1}); whether it links to the chain is the host's
 * check ({@code invalid_previous_event_hash}).
 *
 * <p>Absent, empty (after trimming) or holding control or non-ASCII characters is {@code
 * missing_previous_event_hash}, with a reason that says which.
 *
 * @param value the hash text
 */
public record PreviousEventHash(String value) {

  /** The spec's genesis value, sent when creating a WorkSession. */
  public static final PreviousEventHash GENESIS = new PreviousEventHash("hash:protocol-genesis");

  public PreviousEventHash {
    HeaderText.fieldTextDefect(value)
        .ifPresent(
            why -> {
              throw new IllegalArgumentException("not an event hash: " + why);
            });
  }

  /** Parses the header text; {@code raw} is empty when the header is absent. */
  public static Parsed<PreviousEventHash> parse(Optional<String> raw) {
    return HeaderText.required(
        raw,
        ProtocolErrorId.MISSING_PREVIOUS_EVENT_HASH,
        JarvisHeaders.PREVIOUS_EVENT_HASH,
        value ->
            HeaderText.isFieldText(value)
                ? Parsed.accepted(new PreviousEventHash(value))
                : Parsed.refused(
                    HeaderText.malformed(
                        ProtocolErrorId.MISSING_PREVIOUS_EVENT_HASH,
                        JarvisHeaders.PREVIOUS_EVENT_HASH,
                        "it contains control or non-ASCII characters")));
  }

  /** Whether this is the genesis value. */
  public boolean isGenesis() {
    return equals(GENESIS);
  }

  /** The header text. */
  public String headerValue() {
    return value;
  }
}
