package dev.jarvis.core.hash;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.canonical.CanonicalizationException;
import dev.jarvis.core.canonical.JcsCanonicalizer;
import dev.jarvis.core.canonical.Sha256Hash;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * The idempotency fingerprint of a mutation: what must be identical for a request with a reused
 * {@code Jarvis-Idempotency-Key} to count as a replay rather than a mismatch.
 *
 * <p>It covers the operation, protocol version, acting Actor, path parameters, the WorkSession
 * cursor headers (expected revision and previous event hash) and the body as it travelled. It
 * leaves out {@code Jarvis-Request-Timestamp}, which is fresh on every attempt, and {@code
 * Authorization}, which is host-owned and may be refreshed between attempts.
 *
 * @param operationId the spec's operationId
 * @param actorId the {@code Jarvis-Actor-Id}
 * @param pathParameters path parameter values by name
 * @param expectedRevision {@code Jarvis-Expected-WorkSession-Revision}, where the operation has it
 * @param previousEventHash {@code Jarvis-Previous-Event-Hash}, where the operation has it
 * @param body the request body as it travelled
 */
public record RequestFingerprint(
    String operationId,
    String actorId,
    Map<String, String> pathParameters,
    OptionalLong expectedRevision,
    Optional<String> previousEventHash,
    JsonNode body) {

  public RequestFingerprint {
    Objects.requireNonNull(operationId, "operationId");
    Objects.requireNonNull(actorId, "actorId");
    pathParameters = Map.copyOf(pathParameters);
    Objects.requireNonNull(expectedRevision, "expectedRevision");
    Objects.requireNonNull(previousEventHash, "previousEventHash");
    Objects.requireNonNull(body, "body");
    // Everything but the body was parsed from headers and the path (visible ASCII, decoded UTF-8)
    // before it got here, so only the body can hold text the canonical form cannot carry.
    requireWellFormed("operationId", operationId);
    requireWellFormed("actorId", actorId);
    pathParameters.forEach(
        (name, value) -> {
          requireWellFormed("a path parameter name", name);
          requireWellFormed("path parameter " + name, value);
        });
    previousEventHash.ifPresent(h -> requireWellFormed("previousEventHash", h));
  }

  /** The canonical object the fingerprint hashes. */
  public ObjectNode covered() {
    JsonNodeFactory json = JsonNodeFactory.instance;
    ObjectNode covered = json.objectNode();
    covered.put("operation_id", operationId);
    covered.put("protocol_version", JarvisSpec.PROTOCOL_VERSION);
    covered.put("actor_id", actorId);
    ObjectNode path = covered.putObject("path_parameters");
    new TreeMap<>(pathParameters).forEach(path::put);
    expectedRevision.ifPresent(r -> covered.put("expected_revision", r));
    previousEventHash.ifPresent(h -> covered.put("previous_event_hash", h));
    covered.set("body", body);
    return covered;
  }

  /**
   * The fingerprint text ({@code sha256:<hex>}).
   *
   * @throws CanonicalizationException if the body holds text canonical JSON cannot carry (a lone
   *     surrogate, a number beyond the double range); its pointer is into the body, so {@link
   *     CanonicalizationException#toViolation(String)} names the field the caller sent
   */
  public String hash() {
    try {
      return Sha256Hash.ofCanonical(covered()).text();
    } catch (CanonicalizationException e) {
      JcsCanonicalizer.requireCanonicalForm(body); // the same refusal, pointing into the body
      throw e;
    }
  }

  private static void requireWellFormed(String what, String text) {
    try {
      JcsCanonicalizer.requireCanonicalForm(TextNode.valueOf(text)); // the one judge of such text
    } catch (CanonicalizationException e) {
      throw new IllegalArgumentException(what + " holds a lone UTF-16 surrogate", e);
    }
  }
}
