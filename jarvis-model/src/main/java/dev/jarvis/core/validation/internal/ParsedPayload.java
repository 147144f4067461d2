package dev.jarvis.core.validation.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.canonical.CanonicalizationException;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.model.ProtocolErrorId;
import java.util.Optional;

/**
 * Raw payload after reading: either a JSON tree that canonical JSON can carry, or where and why it
 * could not be read.
 *
 * @param node the tree; {@code null} when there is a problem
 * @param pointer JSON Pointer of where reading stopped ({@code ""} for the document)
 * @param problem what is wrong; {@code null} when the payload was read
 * @param uncarried the canonicalizer's refusal, when the problem is text that canonical JSON cannot
 *     carry (a lone surrogate, a number beyond the double range)
 */
public record ParsedPayload(
    JsonNode node, String pointer, String problem, Optional<CanonicalizationException> uncarried) {

  static ParsedPayload of(JsonNode node) {
    return new ParsedPayload(node, "", null, Optional.empty());
  }

  static ParsedPayload problem(String pointer, String problem) {
    return new ParsedPayload(null, pointer, problem, Optional.empty());
  }

  static ParsedPayload uncarried(CanonicalizationException refusal) {
    return new ParsedPayload(null, refusal.pointer(), refusal.getMessage(), Optional.of(refusal));
  }

  public boolean isReadable() {
    return problem == null;
  }

  /**
   * The one violation of an unreadable payload: {@code unknown_state} at {@link #pointer()}; for
   * text canonical JSON cannot carry, the canonicalizer's own refusal, so that the validator and a
   * caller hashing the same text refuse it alike.
   */
  public ProtocolViolation violation(String objectType) {
    return uncarried
        .map(refusal -> refusal.toViolation(objectType))
        .orElseGet(
            () ->
                // unknown_state is the spec's catch-all; its catalogue text (unknown records)
                // would mislead here.
                new ProtocolViolation(
                    ProtocolErrorId.UNKNOWN_STATE,
                    objectType,
                    pointer,
                    problem,
                    "Send the body as one UTF-8 JSON object of the operation's schema, each"
                        + " member name once."));
  }
}
