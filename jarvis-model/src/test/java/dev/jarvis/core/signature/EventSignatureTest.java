package dev.jarvis.core.signature;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.hash.EventHash;
import dev.jarvis.core.signature.SignatureCheck.Outcome;
import dev.jarvis.model.ProtocolErrorId;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class EventSignatureTest {

  private static final String AGENT = "actor-agent-1";
  private static final String HUMAN = "actor-human-1";
  private static final Instant NOW = Instant.parse("2026-06-12T18:00:00Z");

  private static final KeyPair AGENT_PAIR = SigningKey.generateKeyPair();
  private static final KeyPair HUMAN_PAIR = SigningKey.generateKeyPair();
  private static final KeyPair STRANGER_PAIR = SigningKey.generateKeyPair();

  private static final SigningKey AGENT_KEY = new SigningKey("key-agent", AGENT_PAIR.getPrivate());
  private static final ActorKeys KEYS =
      ActorKeys.of(
          List.of(
              ActorKey.of("key-agent", AGENT, AGENT_PAIR.getPublic()),
              ActorKey.of("key-human", HUMAN, HUMAN_PAIR.getPublic())),
          Set.of(AGENT));

  static ObjectNode event(String actorId) {
    ObjectNode draft = JarvisJson.mapper().createObjectNode();
    draft.put("id", "event-1");
    draft.put("type", "agent.answer_published");
    draft.put("work_session_id", "ws-1");
    draft.put("actor_id", actorId);
    draft.put("timestamp", "2026-06-12T18:00:00Z");
    draft.putObject("payload").put("object_type", "policy_decision").put("action", "publish");
    return EventChain.next(ChainCursor.GENESIS, draft);
  }

  @Test
  void aSignedEventVerifiesAndKeepsItsHash() {
    ObjectNode event = event(AGENT);
    ObjectNode signed = EventSignature.sign(event, AGENT_KEY);

    assertEquals(Outcome.VERIFIED, KEYS.check(signed, NOW).outcome());
    assertEquals(event.get("event_hash").asText(), EventHash.of(signed));
    assertEquals("key-agent", signed.get("signing_key_ref").asText());
    assertTrue(signed.get("actor_signature").asText().matches("ed25519:[A-Za-z0-9_-]{86}"));
    assertEquals(Optional.empty(), KEYS.refusal(signed, NOW));
  }

  @Test
  void theSignatureIsEd25519OverTheUtf8BytesOfTheHashText() throws Exception {
    ObjectNode signed = EventSignature.sign(event(AGENT), AGENT_KEY);
    java.security.Signature jdk = java.security.Signature.getInstance("Ed25519");
    jdk.initVerify(AGENT_PAIR.getPublic());
    jdk.update(signed.get("event_hash").asText().getBytes(StandardCharsets.UTF_8));
    byte[] raw =
        java.util.Base64.getUrlDecoder()
            .decode(signed.get("actor_signature").asText().substring("ed25519:".length()));
    assertTrue(jdk.verify(raw));
  }

  static Stream<Arguments> tamperings() {
    return Stream.of(
        Arguments.of(
            "a payload changed after signing",
            (UnaryOperator<ObjectNode>)
                e -> {
                  ((ObjectNode) e.get("payload")).put("action", "delete_everything");
                  return e;
                },
            Outcome.BAD_SIGNATURE,
            "/actor_signature"),
        Arguments.of(
            "a payload changed and its event_hash recomputed",
            (UnaryOperator<ObjectNode>)
                e -> {
                  ((ObjectNode) e.get("payload")).put("action", "delete_everything");
                  return e.put("event_hash", EventHash.of(e));
                },
            Outcome.BAD_SIGNATURE,
            "/actor_signature"),
        Arguments.of(
            "a signature from a key the host does not know, under the Actor's key id",
            (UnaryOperator<ObjectNode>)
                e ->
                    e.put(
                        "actor_signature",
                        EventSignature.signatureOf(
                            e.get("event_hash").asText(), STRANGER_PAIR.getPrivate())),
            Outcome.BAD_SIGNATURE,
            "/actor_signature"),
        Arguments.of(
            "a signature naming a key no one holds",
            (UnaryOperator<ObjectNode>) e -> e.put("signing_key_ref", "key-nobody"),
            Outcome.UNKNOWN_KEY,
            "/signing_key_ref"),
        Arguments.of(
            "a signature without its key ref",
            (UnaryOperator<ObjectNode>)
                e -> {
                  e.remove("signing_key_ref");
                  return e;
                },
            Outcome.UNKNOWN_KEY,
            "/signing_key_ref"),
        Arguments.of(
            "a key ref without its signature",
            (UnaryOperator<ObjectNode>)
                e -> {
                  e.remove("actor_signature");
                  return e;
                },
            Outcome.BAD_SIGNATURE,
            "/actor_signature"),
        Arguments.of(
            "a signature text with padding",
            (UnaryOperator<ObjectNode>)
                e -> e.put("actor_signature", e.get("actor_signature").asText() + "=="),
            Outcome.BAD_SIGNATURE,
            "/actor_signature"),
        Arguments.of(
            "a signature under another algorithm's prefix",
            (UnaryOperator<ObjectNode>)
                e ->
                    e.put(
                        "actor_signature",
                        e.get("actor_signature").asText().replace("ed25519:", "ed448:")),
            Outcome.BAD_SIGNATURE,
            "/actor_signature"));
  }

  @ParameterizedTest(name = "{0} is refused")
  @MethodSource("tamperings")
  void aTamperedSignatureIsRefused(
      String what, UnaryOperator<ObjectNode> tamper, Outcome outcome, String field) {
    ObjectNode signed = EventSignature.sign(event(AGENT), AGENT_KEY);
    assertEquals(Outcome.VERIFIED, KEYS.check(signed, NOW).outcome(), "positive control");

    ObjectNode tampered = tamper.apply(signed.deepCopy());

    assertEquals(outcome, KEYS.check(tampered, NOW).outcome());
    ProtocolViolation refusal = KEYS.refusal(tampered, NOW).orElseThrow();
    assertEquals(ProtocolErrorId.UNAUTHORIZED_ACTOR, refusal.errorId());
    assertEquals(field, refusal.field());
  }

  @Test
  void aHostileAgentSigningAsTheHumanWithItsOwnKeyIsRefused() {
    // The agent signs an event naming the human as its Actor, with the agent's own key.
    ObjectNode forged = EventSignature.sign(event(HUMAN), AGENT_KEY);
    // Positive control: the same event signed by the human's own key verifies.
    ObjectNode genuine =
        EventSignature.sign(event(HUMAN), new SigningKey("key-human", HUMAN_PAIR.getPrivate()));
    assertEquals(Outcome.VERIFIED, KEYS.check(genuine, NOW).outcome());

    assertEquals(Outcome.KEY_OF_ANOTHER_ACTOR, KEYS.check(forged, NOW).outcome());
    assertEquals("/signing_key_ref", KEYS.refusal(forged, NOW).orElseThrow().field());
  }

  @Test
  void anUnsignedEventIsRefusedOnlyFromAnActorThatMustSign() {
    assertEquals(Outcome.UNSIGNED, KEYS.check(event(AGENT), NOW).outcome());
    ProtocolViolation refusal = KEYS.refusal(event(AGENT), NOW).orElseThrow();
    assertEquals(ProtocolErrorId.UNAUTHORIZED_ACTOR, refusal.errorId());
    assertEquals("/actor_signature", refusal.field());
    assertEquals(Optional.empty(), KEYS.refusal(event(HUMAN), NOW));
  }

  @Test
  void aRevokedKeySignsNothingFromItsRevocationOn() {
    Instant revoked = NOW.plusSeconds(60);
    ActorKeys rotated =
        ActorKeys.of(
            List.of(
                new ActorKey("key-agent", AGENT, AGENT_PAIR.getPublic(), Optional.of(revoked)),
                ActorKey.of("key-agent-2", AGENT, STRANGER_PAIR.getPublic())));
    ObjectNode signed = EventSignature.sign(event(AGENT), AGENT_KEY);

    assertEquals(Outcome.VERIFIED, rotated.check(signed, NOW).outcome());
    assertEquals(Outcome.REVOKED_KEY, rotated.check(signed, revoked).outcome());
    ObjectNode renewed =
        EventSignature.sign(
            event(AGENT), new SigningKey("key-agent-2", STRANGER_PAIR.getPrivate()));
    assertEquals(Outcome.VERIFIED, rotated.check(renewed, revoked).outcome());
  }

  @Test
  void noKeysRefuseEverySignatureAndRequireNone() {
    ObjectNode signed = EventSignature.sign(event(AGENT), AGENT_KEY);
    assertEquals(Outcome.UNKNOWN_KEY, ActorKeys.none().check(signed, NOW).outcome());
    assertEquals(Optional.empty(), ActorKeys.none().refusal(event(AGENT), NOW));
  }

  @Test
  void aKeyFileReadsKeysRotationAndMustSign() {
    String json =
        "{\"keys\": [{\"key_id\": \"key-agent\", \"actor_id\": \""
            + AGENT
            + "\", \"public_key\": \""
            + ActorKey.encode(AGENT_PAIR.getPublic())
            + "\", \"revoked_at\": \"2026-12-01T00:00:00Z\"},"
            + " {\"key_id\": \"key-agent-2\", \"actor_id\": \""
            + AGENT
            + "\", \"public_key\": \""
            + ActorKey.encode(STRANGER_PAIR.getPublic())
            + "\"}], \"must_sign\": [\""
            + AGENT
            + "\"]}";
    ActorKeys keys = ActorKeys.fromJson(json.getBytes(StandardCharsets.UTF_8), "keys.json");

    assertTrue(keys.mustSign(AGENT));
    assertFalse(keys.mustSign(HUMAN));
    assertEquals(
        Optional.of(Instant.parse("2026-12-01T00:00:00Z")),
        keys.key("key-agent").orElseThrow().revokedAt());
    assertEquals(
        Outcome.VERIFIED, keys.check(EventSignature.sign(event(AGENT), AGENT_KEY), NOW).outcome());
  }

  static Stream<Arguments> badKeyFiles() {
    String key = ActorKey.encode(AGENT_PAIR.getPublic());
    String entry = "{\"key_id\": \"k\", \"actor_id\": \"a\", \"public_key\": \"" + key + "\"";
    return Stream.of(
        Arguments.of("an array", "[]"),
        Arguments.of("an unknown member", "{\"keys\": [], \"extra\": 1}"),
        Arguments.of("a key with an unknown member", "{\"keys\": [" + entry + ", \"x\": 1}]}"),
        Arguments.of("a key id given twice", "{\"keys\": [" + entry + "}, " + entry + "}]}"),
        Arguments.of(
            "an Actor that must sign without a key", "{\"keys\": [], \"must_sign\": [\"a\"]}"),
        Arguments.of(
            "a public key that is no Ed25519 key",
            "{\"keys\": [{\"key_id\": \"k\", \"actor_id\": \"a\", \"public_key\": \""
                + java.util.Base64.getEncoder().encodeToString(rsaKey())
                + "\"}]}"),
        Arguments.of(
            "a revoked_at that is no time",
            "{\"keys\": [" + entry + ", \"revoked_at\": \"soon\"}]}"));
  }

  @ParameterizedTest(name = "a key file with {0} is refused")
  @MethodSource("badKeyFiles")
  void aMalformedKeyFileIsRefused(String what, String json) {
    assertThrows(
        IllegalArgumentException.class,
        () -> ActorKeys.fromJson(json.getBytes(StandardCharsets.UTF_8), "keys.json"));
  }

  @Test
  void aSigningKeyNeverPrintsItsKey() {
    assertEquals("SigningKey[keyId=key-agent]", AGENT_KEY.toString());
    String pkcs8 =
        java.util.Base64.getEncoder().encodeToString(AGENT_PAIR.getPrivate().getEncoded());
    assertEquals(
        Outcome.VERIFIED,
        KEYS.check(EventSignature.sign(event(AGENT), SigningKey.fromPkcs8("key-agent", pkcs8)), NOW)
            .outcome());
    IllegalArgumentException bad =
        assertThrows(
            IllegalArgumentException.class, () -> SigningKey.fromPkcs8("k", "AAAA" + pkcs8));
    assertFalse(bad.getMessage().contains(pkcs8));
  }

  private static byte[] rsaKey() {
    try {
      KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
      rsa.initialize(1024);
      return rsa.generateKeyPair().getPublic().getEncoded();
    } catch (java.security.GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
