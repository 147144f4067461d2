package dev.jarvis.core.headers;

import dev.jarvis.model.ProtocolErrorId;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * {@code Jarvis-Actor-Id}: the acting Actor, a {@code JarvisId} (1 to 160 characters matching
 * {@value #PATTERN}).
 *
 * <p>Every refusal is {@code missing_actor}, with a reason that says absent, empty or malformed.
 * The spec has no id for a malformed Actor id, and a header that names no valid Actor names no
 * Actor at all, so {@code missing_actor} is the closest; {@code unauthorized_actor} is kept for a
 * well-formed Actor that lacks authority.
 *
 * @param value the Actor's Jarvis id
 */
public record ActorId(String value) {

  /** The spec's {@code JarvisId} pattern. */
  public static final String PATTERN = "^[A-Za-z0-9][A-Za-z0-9._:-]*$";

  /** The spec's {@code JarvisId} maximum length. */
  public static final int MAX_LENGTH = 160;

  private static final Pattern JARVIS_ID = Pattern.compile(PATTERN);

  public ActorId {
    Optional<String> defect = defect(value);
    if (defect.isPresent()) {
      throw new IllegalArgumentException("invalid Actor id: " + defect.get());
    }
  }

  /** Parses the header text; {@code raw} is empty when the header is absent. */
  public static Parsed<ActorId> parse(Optional<String> raw) {
    return HeaderText.required(
        raw,
        ProtocolErrorId.MISSING_ACTOR,
        JarvisHeaders.ACTOR_ID,
        value ->
            defect(value)
                .<Parsed<ActorId>>map(
                    why ->
                        Parsed.refused(
                            HeaderText.malformed(
                                ProtocolErrorId.MISSING_ACTOR, JarvisHeaders.ACTOR_ID, why)))
                .orElseGet(() -> Parsed.accepted(new ActorId(value))));
  }

  private static Optional<String> defect(String value) {
    if (value.isEmpty()) {
      return Optional.of("it is empty");
    }
    if (value.length() > MAX_LENGTH) {
      return Optional.of("it is longer than " + MAX_LENGTH + " characters");
    }
    if (!JARVIS_ID.matcher(value).matches()) {
      return Optional.of(
          "it is not a Jarvis id, which starts with a letter or digit and has only letters, digits,"
              + " '.', '_', ':' and '-'");
    }
    return Optional.empty();
  }

  /** The header text. */
  public String headerValue() {
    return value;
  }
}
