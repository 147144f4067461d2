package dev.jarvis.host;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.hash.EventHash;
import dev.jarvis.core.signature.ActorKey;
import dev.jarvis.core.signature.ActorKeys;
import dev.jarvis.core.signature.EventSignature;
import dev.jarvis.core.signature.SigningKey;
import dev.jarvis.host.KitHost.Answer;
import dev.jarvis.samples.SampleRecords;
import java.security.KeyPair;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A host configured with the Actors' keys verifies every Actor signature of an appended event and
 * refuses an unsigned event of an Actor that must sign; each refusal beside its positive control.
 */
class ActorSignaturesTest {

  private static final KeyPair HUMAN_PAIR = SigningKey.generateKeyPair();
  private static final KeyPair AGENT_PAIR = SigningKey.generateKeyPair();
  private static final KeyPair STRANGER_PAIR = SigningKey.generateKeyPair();
  private static final SigningKey HUMAN_KEY = new SigningKey("key-human", HUMAN_PAIR.getPrivate());
  private static final SigningKey AGENT_KEY = new SigningKey("key-agent", AGENT_PAIR.getPrivate());
  private static final Instant REVOKED = Instant.parse("2026-06-12T19:00:00Z");

  private static final ActorKeys KEYS =
      ActorKeys.of(
          List.of(
              ActorKey.of("key-human", KitHost.HUMAN, HUMAN_PAIR.getPublic()),
              ActorKey.of("key-agent", KitHost.AGENT, AGENT_PAIR.getPublic()),
              new ActorKey(
                  "key-human-old", KitHost.HUMAN, STRANGER_PAIR.getPublic(), Optional.of(REVOKED))),
          Set.of(KitHost.HUMAN));

  private final KitHost kit = new KitHost(HostAuth.anyCaller(), "", b -> b.actorKeys(KEYS));

  ActorSignaturesTest() {
    KitHost.ok(kit.createSession(KitHost.WS));
  }

  /** A linked event by {@code actor} at the WorkSession's cursor, not signed. */
  private ObjectNode event(String actor, String id) {
    ChainCursor at = kit.cursor(KitHost.WS);
    return EventChain.next(
        at, SampleRecords.eventDraft(id, KitHost.WS, actor, "note.recorded", kit.now()));
  }

  private Answer append(String actor, ObjectNode event) {
    return kit.scoped("appendJarvisEvent", KitHost.WS, actor, event);
  }

  @Test
  void anEventSignedWithTheActorsKeyIsAppendedWithItsSignature() {
    ObjectNode signed = EventSignature.sign(event(KitHost.HUMAN, "evt-1"), HUMAN_KEY);

    Answer answer = KitHost.ok(append(KitHost.HUMAN, signed));

    assertEquals(signed.get("actor_signature"), answer.body().get("actor_signature"));
    assertEquals("key-human", answer.body().get("signing_key_ref").asText());
  }

  static Stream<Arguments> badlySigned() {
    return Stream.of(
        Arguments.of(
            "an unsigned event of an Actor that must sign",
            (Function<ObjectNode, ObjectNode>) e -> e,
            "/actor_signature"),
        Arguments.of(
            "an event signed with another Actor's key (an agent signing as the human)",
            (Function<ObjectNode, ObjectNode>) e -> EventSignature.sign(e, AGENT_KEY),
            "/signing_key_ref"),
        Arguments.of(
            "an event signed with a key the host does not know",
            (Function<ObjectNode, ObjectNode>)
                e ->
                    EventSignature.sign(
                        e, new SigningKey("key-unknown", STRANGER_PAIR.getPrivate())),
            "/signing_key_ref"),
        Arguments.of(
            "an event whose payload changed after signing, its hash recomputed",
            (Function<ObjectNode, ObjectNode>)
                e -> {
                  ObjectNode signed = EventSignature.sign(e, HUMAN_KEY);
                  ((ObjectNode) signed.get("payload")).put("action", "approved_everything");
                  return signed.put("event_hash", EventHash.of(signed));
                },
            "/actor_signature"),
        Arguments.of(
            "an event signed by another private key under the Actor's key id",
            (Function<ObjectNode, ObjectNode>)
                e ->
                    EventSignature.sign(e, new SigningKey("key-human", STRANGER_PAIR.getPrivate())),
            "/actor_signature"));
  }

  @ParameterizedTest(name = "{0} is refused with unauthorized_actor")
  @MethodSource("badlySigned")
  void aBadlySignedEventIsRefusedAndNothingIsAppended(
      String what, Function<ObjectNode, ObjectNode> sign, String field) {
    ChainCursor before = kit.cursor(KitHost.WS);

    Answer answer = append(KitHost.HUMAN, sign.apply(event(KitHost.HUMAN, "evt-1")));

    assertEquals(400, answer.status());
    assertEquals("unauthorized_actor", answer.errorId());
    assertEquals(field, answer.body().path("field").asText());
    assertEquals("jarvis_event", answer.body().path("object_type").asText());
    assertEquals(before, kit.cursor(KitHost.WS));
    // Positive control: the same event, signed as documented, is appended.
    KitHost.ok(
        append(KitHost.HUMAN, EventSignature.sign(event(KitHost.HUMAN, "evt-1"), HUMAN_KEY)));
  }

  @Test
  void anActorThatNeedNotSignAppendsUnsigned() {
    KitHost.ok(append(KitHost.SECOND_HUMAN, event(KitHost.SECOND_HUMAN, "evt-1")));
  }

  @Test
  void aRevokedKeySignsNothingFromItsRevocationOn() {
    SigningKey old = new SigningKey("key-human-old", STRANGER_PAIR.getPrivate());
    KitHost.ok(append(KitHost.HUMAN, EventSignature.sign(event(KitHost.HUMAN, "evt-1"), old)));

    kit.clock.advance(Duration.ofHours(1));
    Answer late = append(KitHost.HUMAN, EventSignature.sign(event(KitHost.HUMAN, "evt-2"), old));

    assertEquals("unauthorized_actor", late.errorId());
    assertEquals("/signing_key_ref", late.body().path("field").asText());
    KitHost.ok(
        append(KitHost.HUMAN, EventSignature.sign(event(KitHost.HUMAN, "evt-2"), HUMAN_KEY)));
  }

  @Test
  void aHostWithoutKeysRefusesASignedEventAndAcceptsItUnsigned() {
    KitHost plain = KitHost.withSession();
    ObjectNode unsigned =
        EventChain.next(
            plain.cursor(KitHost.WS),
            SampleRecords.eventDraft(
                "evt-1", KitHost.WS, KitHost.HUMAN, "note.recorded", plain.now()));

    Answer signed =
        plain.scoped(
            "appendJarvisEvent",
            KitHost.WS,
            KitHost.HUMAN,
            EventSignature.sign(unsigned, HUMAN_KEY));

    assertEquals("unauthorized_actor", signed.errorId());
    assertEquals("/signing_key_ref", signed.body().path("field").asText());
    KitHost.ok(plain.scoped("appendJarvisEvent", KitHost.WS, KitHost.HUMAN, unsigned));
  }

  @Test
  void theHostsOwnEventsAreNotSignedAndNeedNotBe() {
    // createWorkSession by the human, who must sign, wrote the genesis event unsigned.
    var genesis = kit.host.config().stores().sessions().events(KitHost.WS, 0, 1).get(0);
    assertEquals(false, genesis.has("actor_signature"));
  }
}
