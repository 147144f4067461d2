package dev.jarvis.core.hash;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.canonical.CanonicalizationException;
import dev.jarvis.core.canonical.JcsCanonicalizer;
import dev.jarvis.core.canonical.Sha256Hash;
import dev.jarvis.model.PolicyActionRequest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code normalized_action_hash} of a {@code PolicyActionRequest}: SHA-256 over the RFC 8785
 * canonical form of the action after normalisation.
 *
 * <p>Normalisation makes two requests for the same action hash alike: arrays the spec declares
 * {@code uniqueItems} (sets of refs, whose order carries no meaning) are sorted by their canonical
 * text, and an empty array is treated as absent. Nothing else changes.
 */
public final class ActionHash {

  private static final Set<String> SET_VALUED = setValuedProperties();

  private ActionHash() {}

  /**
   * The hash text ({@code sha256:<hex>}) of a PolicyActionRequest object.
   *
   * @throws CanonicalizationException if the action holds text canonical JSON cannot carry (a lone
   *     surrogate, a number beyond the double range); its pointer is into {@code action} as given,
   *     before normalisation reordered any set, so {@code e.toViolation("policy_decision",
   *     "/requested_action")} names the field the caller sent
   */
  public static String of(JsonNode action) {
    ObjectNode normalized = normalize(action);
    try {
      return Sha256Hash.ofCanonical(normalized).text();
    } catch (CanonicalizationException e) {
      // Sorting a set moved its items: find the offending value again where the caller put it.
      JcsCanonicalizer.requireCanonicalForm(action);
      throw e;
    }
  }

  /**
   * The hash text of a PolicyActionRequest record, over the JSON it is sent as (the shared {@link
   * JarvisJson} mapping), so a record and its JSON form hash alike.
   */
  public static String of(PolicyActionRequest action) {
    JsonNode json = JarvisJson.mapper().valueToTree(action);
    return of(json);
  }

  /** The normalised action that the hash covers. */
  public static ObjectNode normalize(JsonNode action) {
    if (!action.isObject()) {
      throw new IllegalArgumentException("a PolicyActionRequest is a JSON object");
    }
    ObjectNode normalized = JsonNodeFactory.instance.objectNode();
    for (Map.Entry<String, JsonNode> member : action.properties()) {
      JsonNode value = member.getValue();
      if (value.isArray() && value.isEmpty()) {
        continue;
      }
      if (value.isArray() && SET_VALUED.contains(member.getKey())) {
        value = sorted((ArrayNode) value);
      }
      normalized.set(member.getKey(), value);
    }
    return normalized;
  }

  private static ArrayNode sorted(ArrayNode array) {
    List<JsonNode> items = new ArrayList<>();
    array.forEach(items::add);
    items.sort(Comparator.comparing(JsonNode::toString));
    ArrayNode out = JsonNodeFactory.instance.arrayNode(items.size());
    items.forEach(out::add);
    return out;
  }

  private static Set<String> setValuedProperties() {
    Set<String> names = new HashSet<>();
    JsonNode properties =
        JarvisSpec.tree()
            .path("components")
            .path("schemas")
            .path("PolicyActionRequest")
            .path("properties");
    for (Map.Entry<String, JsonNode> property : properties.properties()) {
      if (property.getValue().path("uniqueItems").asBoolean(false)) {
        names.add(property.getKey());
      }
    }
    return Set.copyOf(names);
  }
}
