package dev.jarvis.core.validation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.Fuzz;
import dev.jarvis.core.FuzzJson;
import dev.jarvis.core.FuzzRandom;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.hash.ActionHash;
import dev.jarvis.core.hash.EventHash;
import dev.jarvis.core.hash.RequestFingerprint;
import dev.jarvis.model.ProtocolErrorId;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * Valid payloads of the three records the reliability campaign attacked, mutated one way at a time
 * (a field removed, a value retyped, an oversized string, deep nesting, a duplicated key, truncated
 * text, stray bytes, a lone surrogate, a number beyond the double range): the validator never
 * throws; every violation is a spec-valid {@code ProtocolError}; and what it accepts can be hashed.
 */
@DisplayName("Payload validator properties")
class PayloadValidatorPropertyTest {

  private static final PayloadValidator VALIDATOR = PayloadValidator.forSpec();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final List<String> SCHEMAS =
      List.of("JarvisEvent", "PolicyDecision", "Contribution");

  /** Violations whose wire form was checked already: most mutations break the same few rules. */
  private static final Set<ProtocolViolation> WIRE_CHECKED = ConcurrentHashMap.newKeySet();

  /** One way to break a valid payload. */
  enum Mutation {
    REMOVED_FIELD,
    RETYPED_VALUE,
    OVERSIZED_STRING,
    DEEP_NESTING,
    DUPLICATED_KEY,
    TRUNCATED_TEXT,
    STRAY_BYTES,
    LONE_SURROGATE,
    HUGE_NUMBER
  }

  /** A payload of {@code schema} broken by {@code mutation}, as the bytes a receiver gets. */
  record Mutated(String schema, Mutation mutation, byte[] body) {
    @Override
    public String toString() {
      String text = new String(body, StandardCharsets.ISO_8859_1);
      return schema
          + " with "
          + mutation
          + ": "
          + (text.length() > 300 ? text.substring(0, 300) + "…" : text);
    }
  }

  /** Nesting depths on both sides of Jackson's default limit of 1,000 levels, and far beyond it. */
  private static final List<Integer> DEPTHS = List.of(2, 64, 990, 1001, 5000);

  private static Mutated mutatedPayload(FuzzRandom random) {
    return mutate(
        random.oneOf(SCHEMAS),
        random.oneOf(Mutation.class),
        random.between(0, Integer.MAX_VALUE),
        FuzzJson.loneSurrogate(random),
        random.bytes(1, 3),
        random.oneOf(DEPTHS));
  }

  @Test
  @DisplayName(
      "a mutated payload is refused with spec-valid ProtocolErrors, or accepted and hashable")
  void aMutatedPayloadIsRefusedWithSpecValidErrorsOrAcceptedAndHashable(TestInfo test) {
    Fuzz.forAll(
        test,
        400,
        PayloadValidatorPropertyTest::mutatedPayload,
        payload -> {
          List<ProtocolViolation> violations = VALIDATOR.validate(payload.schema(), payload.body());
          violations.forEach(PayloadValidatorPropertyTest::assertSpecValid);
          if (payload.mutation() == Mutation.LONE_SURROGATE
              || payload.mutation() == Mutation.HUGE_NUMBER) {
            assertEquals(1, violations.size(), violations::toString);
            assertEquals(ProtocolErrorId.UNKNOWN_STATE, violations.get(0).errorId());
          }
          Optional<JsonNode> tree = readable(payload.body());
          if (violations.isEmpty()) {
            assertHashable(payload.schema(), tree.orElseThrow());
          }
          // A tree that could be read is judged as its bytes were: the host's and the client's
          // validation agree.
          tree.ifPresent(t -> assertEquals(violations, VALIDATOR.validate(payload.schema(), t)));
        });
  }

  private static void assertSpecValid(ProtocolViolation v) {
    assertTrue(FuzzJson.SPEC_ERROR_IDS.contains(v.errorId().getValue()), v::toString);
    assertTrue(FuzzJson.isJsonPointer(v.field()), v::toString);
    assertFalse(v.objectType().isBlank(), v::toString);
    if (WIRE_CHECKED.add(v)) {
      byte[] wire;
      try {
        wire = JarvisJson.mapper().writeValueAsBytes(v.toProtocolError("trace:fuzz"));
      } catch (JsonProcessingException e) {
        throw new AssertionError("the ProtocolError cannot be written: " + v, e);
      }
      List<ProtocolViolation> offSpec = VALIDATOR.validate("ProtocolError", wire);
      assertTrue(offSpec.isEmpty(), () -> v + " is sent off-spec: " + offSpec);
    }
  }

  /** What a host hashes of an accepted body: the idempotency fingerprint, and the record's hash. */
  private static void assertHashable(String schema, JsonNode body) {
    new RequestFingerprint(
            "fuzz", "actor-1", Map.of(), OptionalLong.empty(), Optional.empty(), body)
        .hash();
    if (schema.equals("JarvisEvent")) {
      EventHash.of(body);
    } else if (schema.equals("PolicyDecision")) {
      ActionHash.of(body.path("requested_action"));
    }
  }

  private static Optional<JsonNode> readable(byte[] body) {
    try {
      return Optional.ofNullable(JarvisJson.mapper().readTree(body))
          .filter(t -> !t.isMissingNode());
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  // ---------------------------------------------------------------- mutations

  /** Where a value sits: its parent and its name there (objects) or its index (arrays). */
  private record Place(JsonNode parent, String name, int index, JsonNode value) {
    void replace(JsonNode with) {
      if (parent instanceof ObjectNode object) {
        object.set(name, with);
      } else {
        ((ArrayNode) parent).set(index, with);
      }
    }
  }

  private static Mutated mutate(
      String schema, Mutation mutation, int pick, char surrogate, byte[] stray, int depth) {
    ObjectNode payload = Payloads.valid(schema);
    List<Place> places = new ArrayList<>();
    collect(payload, places);
    List<Place> members = places.stream().filter(p -> p.parent().isObject()).toList();
    Place place = places.get(pick % places.size());
    Place member = members.get(pick % members.size());
    byte[] body =
        switch (mutation) {
          case REMOVED_FIELD -> {
            ((ObjectNode) member.parent()).remove(member.name());
            yield FuzzJson.escapedText(payload);
          }
          case RETYPED_VALUE -> {
            place.replace(retyped(place.value()));
            yield FuzzJson.escapedText(payload);
          }
          case OVERSIZED_STRING -> {
            place.replace(NODES.textNode("x".repeat(200_000)));
            yield FuzzJson.escapedText(payload);
          }
          case DEEP_NESTING -> {
            JsonNode nested = NODES.textNode("deep");
            for (int i = 0; i < depth; i++) {
              nested = NODES.arrayNode().add(nested);
            }
            place.replace(nested);
            yield FuzzJson.escapedText(payload);
          }
          case DUPLICATED_KEY ->
              FuzzJson.escapedText(payload, Map.of(member.parent(), member.name()));
          case TRUNCATED_TEXT -> {
            byte[] text = FuzzJson.escapedText(payload);
            yield Arrays.copyOf(text, pick % text.length);
          }
          case STRAY_BYTES -> {
            byte[] text = FuzzJson.escapedText(payload);
            int at = pick % (text.length + 1);
            byte[] out = new byte[text.length + stray.length];
            System.arraycopy(text, 0, out, 0, at);
            System.arraycopy(stray, 0, out, at, stray.length);
            System.arraycopy(text, at, out, at + stray.length, text.length - at);
            yield out;
          }
          case LONE_SURROGATE -> {
            if (pick % 2 == 0) {
              ObjectNode parent = (ObjectNode) member.parent();
              JsonNode value = parent.remove(member.name());
              parent.set(withSurrogate(member.name(), surrogate, pick), value);
            } else {
              place.replace(NODES.textNode(withSurrogate(place.value().asText(), surrogate, pick)));
            }
            yield FuzzJson.escapedText(payload);
          }
          case HUGE_NUMBER -> {
            place.replace(NODES.numberNode(new BigDecimal("1e400")));
            yield FuzzJson.escapedText(payload);
          }
        };
    return new Mutated(schema, mutation, body);
  }

  private static void collect(JsonNode node, List<Place> places) {
    if (node.isObject()) {
      node.properties()
          .forEach(
              m -> {
                places.add(new Place(node, m.getKey(), -1, m.getValue()));
                collect(m.getValue(), places);
              });
    } else if (node.isArray()) {
      for (int i = 0; i < node.size(); i++) {
        places.add(new Place(node, null, i, node.get(i)));
        collect(node.get(i), places);
      }
    }
  }

  /** A value of another JSON type than {@code value}'s. */
  private static JsonNode retyped(JsonNode value) {
    return switch (value.getNodeType()) {
      case STRING -> NODES.numberNode(42);
      case NUMBER -> NODES.textNode(value.asText());
      case OBJECT -> NODES.arrayNode().add(value);
      case ARRAY -> NODES.objectNode().set("items", value);
      case BOOLEAN -> NODES.nullNode();
      default -> NODES.booleanNode(true);
    };
  }

  /** {@code text} with one lone surrogate put in, next to nothing it could pair with. */
  private static String withSurrogate(String text, char surrogate, int pick) {
    int at = pick % (text.length() + 1);
    return text.substring(0, at) + surrogate + "!" + text.substring(at);
  }
}
