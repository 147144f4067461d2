package dev.jarvis.core.hash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.canonical.CanonicalizationException;
import dev.jarvis.core.canonical.CanonicalizationException.Reason;
import dev.jarvis.core.canonical.JcsCanonicalizer;
import dev.jarvis.core.chain.ChainBreak;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.error.ProtocolViolation;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every hashing entry point refuses text canonical JSON cannot carry with a {@link
 * CanonicalizationException} pointing into what the caller passed, which {@code toViolation} turns
 * into the validator's refusal in one line.
 */
class UnhashableInputTest {

  private static JsonNode json(String text) throws Exception {
    return JarvisJson.mapper().readTree(text);
  }

  private static RequestFingerprint fingerprintOf(JsonNode body) {
    return new RequestFingerprint(
        "recordPolicyDecision",
        "actor-agent-1",
        Map.of("work_session_id", "ws-1"),
        OptionalLong.of(3),
        Optional.of("hash:protocol-genesis"),
        body);
  }

  static Stream<Arguments> entryPoints() {
    Function<JsonNode, String> event = EventHash::of;
    Function<JsonNode, String> action = ActionHash::of;
    Function<JsonNode, String> fingerprint = body -> fingerprintOf(body).hash();
    return Stream.of(
        Arguments.of("EventHash", event, "{\"type\":\"a\\udc00b\",\"sequence\":1}", "/type"),
        Arguments.of("EventHash", event, "{\"payload\":{\"n\":-1e400}}", "/payload/n"),
        // input_refs is a set: sorting moves "\ud800z" first, but the pointer is where it was sent.
        Arguments.of(
            "ActionHash",
            action,
            "{\"action\":\"fetch\",\"input_refs\":[\"b\",\"\\ud800z\"]}",
            "/input_refs/1"),
        Arguments.of(
            "RequestFingerprint",
            fingerprint,
            "{\"requested_action\":{\"action\":\"\\udfff\"}}",
            "/requested_action/action"));
  }

  @ParameterizedTest(name = "{0} of {2} is refused at {3}")
  @MethodSource("entryPoints")
  void aHashOfUncarriedTextIsATypedRefusalPointingIntoTheInput(
      String entry, Function<JsonNode, String> hash, String input, String pointer)
      throws Exception {
    JsonNode value = json(input);
    CanonicalizationException e =
        assertThrows(CanonicalizationException.class, () -> hash.apply(value));
    assertEquals(pointer, e.pointer());
    ProtocolViolation v = e.toViolation("policy_decision", "/requested_action");
    assertEquals("unknown_state", v.errorId().getValue());
    assertEquals("/requested_action" + pointer, v.field());
  }

  @Test
  void aRefusalOfTheWholeDocumentIsSentAtTheRootPointer() {
    CanonicalizationException e =
        assertThrows(
            CanonicalizationException.class,
            () -> JcsCanonicalizer.canonicalize(JsonNodeFactory.instance.textNode("\ud800")));
    assertEquals(Reason.LONE_SURROGATE, e.reason());
    assertEquals("", e.toViolation("jarvis_event").field());
    assertEquals("/", e.toViolation("jarvis_event").toProtocolError("trace:t").getField());
  }

  @Test
  void aFingerprintRefusesAPathParameterThatNoHeaderOrPathCouldCarry() {
    assertThrows(
        IllegalArgumentException.class,
        () ->
            new RequestFingerprint(
                "getWorkSession",
                "actor-1",
                Map.of("work_session_id", "ws-\ud800"),
                OptionalLong.empty(),
                Optional.empty(),
                JarvisJson.mapper().createObjectNode()));
  }

  @Test
  void anUnhashableEventBreaksTheChainWithTheCanonicalizersRefusalNotAnException()
      throws Exception {
    ObjectNode draft = (ObjectNode) json("{\"id\":\"e-1\",\"work_session_id\":\"ws-1\"}");
    ObjectNode first = EventChain.next(ChainCursor.GENESIS, draft);
    ObjectNode second = EventChain.next(ChainCursor.GENESIS.advance(EventHash.of(first)), draft);
    second.put("type", "x\ud800");

    Optional<ChainBreak> broken = EventChain.verify(List.of(first, second));

    assertEquals(1, broken.orElseThrow().index());
    assertEquals("unknown_state", broken.get().violation().errorId().getValue());
    assertEquals("/1/type", broken.get().violation().field());
    assertEquals(
        Optional.of("/type"),
        EventChain.checkNext(ChainCursor.GENESIS.advance(EventHash.of(first)), second)
            .map(ProtocolViolation::field));
  }
}
