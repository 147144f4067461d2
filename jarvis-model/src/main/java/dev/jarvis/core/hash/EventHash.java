package dev.jarvis.core.hash;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.canonical.CanonicalizationException;
import dev.jarvis.core.canonical.Sha256Hash;
import java.util.Map;
import java.util.Set;

/**
 * The {@code event_hash} of a {@code JarvisEvent}: SHA-256 over the RFC 8785 canonical form of the
 * event as it travels, without the fields in {@link #EXCLUDED}.
 *
 * <p>Computed from the JSON tree that was sent or received, never from a re-serialised model
 * object, so timestamp and number text are hashed as they travelled.
 */
public final class EventHash {

  /**
   * Fields the hash does not cover: the hash itself, and the signature envelope, which signs the
   * hash and so cannot be covered by it.
   */
  public static final Set<String> EXCLUDED =
      Set.of("event_hash", "actor_signature", "signing_key_ref");

  private EventHash() {}

  /**
   * The hash text ({@code sha256:<hex>}) of an event object.
   *
   * @throws CanonicalizationException if the event holds text canonical JSON cannot carry (a lone
   *     surrogate, a number beyond the double range); its pointer is into {@code event}, and {@link
   *     CanonicalizationException#toViolation(String) toViolation("jarvis_event")} is the refusal
   */
  public static String of(JsonNode event) {
    if (!event.isObject()) {
      throw new IllegalArgumentException("a JarvisEvent is a JSON object");
    }
    // A shallow copy is enough: only top-level members are left out, so a refusal's pointer into
    // the copy is its pointer into the event.
    ObjectNode covered = JsonNodeFactory.instance.objectNode();
    for (Map.Entry<String, JsonNode> member : event.properties()) {
      if (!EXCLUDED.contains(member.getKey())) {
        covered.set(member.getKey(), member.getValue());
      }
    }
    return Sha256Hash.ofCanonical(covered).text();
  }
}
