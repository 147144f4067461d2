package dev.jarvis.core.signature;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.canonical.CanonicalizationException;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.hash.EventHash;
import dev.jarvis.core.signature.SignatureCheck.Outcome;
import dev.jarvis.model.ProtocolErrorId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The Actors' public keys, by key id, and the Actors that must sign every event they append: what a
 * host verifies {@code actor_signature} with ({@code HostConfig}, {@code serve --actor-keys}) and
 * what an audit verifies a log with. An Actor may hold several keys (rotation: sign with the new
 * one, revoke the old one with {@code revoked_at}); a key verifies its own Actor's events only.
 *
 * <p>The file form is a JSON object:
 *
 * <pre>{@code
 * {"keys": [{"key_id": "key-agent-1-2026-12", "actor_id": "actor-agent-1",
 *            "public_key": "<base64 X.509 SubjectPublicKeyInfo of an Ed25519 key>"},
 *           {"key_id": "key-agent-1-2026-06", "actor_id": "actor-agent-1",
 *            "public_key": "...", "revoked_at": "2026-12-01T00:00:00Z"}],
 *  "must_sign": ["actor-agent-1"]}
 * }</pre>
 *
 * Unknown members are refused, key ids are unique, and an Actor that must sign holds a key.
 */
public final class ActorKeys {

  private static final ActorKeys NONE = new ActorKeys(Map.of(), Set.of());

  private final Map<String, ActorKey> keys;
  private final Set<String> mustSign;

  private ActorKeys(Map<String, ActorKey> keys, Set<String> mustSign) {
    this.keys = keys;
    this.mustSign = mustSign;
  }

  /** No keys: every signature is of an unknown key, and no Actor must sign. */
  public static ActorKeys none() {
    return NONE;
  }

  /**
   * These keys, and these Actors signing every event they append.
   *
   * @throws IllegalArgumentException if two keys share an id, or an Actor that must sign has no key
   */
  public static ActorKeys of(List<ActorKey> keys, Set<String> mustSign) {
    Map<String, ActorKey> byId = new LinkedHashMap<>();
    for (ActorKey key : keys) {
      if (byId.putIfAbsent(key.keyId(), key) != null) {
        throw new IllegalArgumentException("key id " + key.keyId() + " is given twice");
      }
    }
    for (String actor : mustSign) {
      if (byId.values().stream().noneMatch(k -> k.actorId().equals(actor))) {
        throw new IllegalArgumentException("Actor " + actor + " must sign but has no key");
      }
    }
    return new ActorKeys(Map.copyOf(byId), Set.copyOf(mustSign));
  }

  /** These keys, no Actor required to sign. */
  public static ActorKeys of(List<ActorKey> keys) {
    return of(keys, Set.of());
  }

  /**
   * Reads a key file.
   *
   * @throws IOException if it cannot be read
   * @throws IllegalArgumentException if it is not a key file as documented
   */
  public static ActorKeys fromJson(Path file) throws IOException {
    return fromJson(Files.readAllBytes(file), file.toString());
  }

  /**
   * Reads a key file's content.
   *
   * @param source what to call the file in messages
   * @throws IllegalArgumentException if it is not a key file as documented
   */
  public static ActorKeys fromJson(byte[] json, String source) {
    JsonNode root;
    try {
      root = JarvisJson.mapper().readTree(json);
    } catch (IOException e) {
      throw new IllegalArgumentException(source + " is not valid JSON", e);
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException(source + " must hold a JSON object with keys");
    }
    onlyMembers(root, source, Set.of("keys", "must_sign"));
    JsonNode keys = root.path("keys");
    if (!keys.isArray()) {
      throw new IllegalArgumentException(source + ": keys must be an array");
    }
    List<ActorKey> out = new ArrayList<>();
    for (int i = 0; i < keys.size(); i++) {
      out.add(key(keys.get(i), source + " key " + i));
    }
    Set<String> mustSign = new LinkedHashSet<>();
    JsonNode required = root.path("must_sign");
    if (!required.isMissingNode()) {
      if (!required.isArray()) {
        throw new IllegalArgumentException(source + ": must_sign must be an array of Actor ids");
      }
      for (JsonNode actor : required) {
        if (!actor.isTextual() || actor.asText().isEmpty()) {
          throw new IllegalArgumentException(source + ": must_sign must be an array of Actor ids");
        }
        mustSign.add(actor.asText());
      }
    }
    try {
      return of(out, mustSign);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(source + ": " + e.getMessage(), e);
    }
  }

  private static ActorKey key(JsonNode entry, String where) {
    if (!entry.isObject()) {
      throw new IllegalArgumentException(where + " is not an object");
    }
    onlyMembers(entry, where, Set.of("key_id", "actor_id", "public_key", "revoked_at"));
    String keyId = text(entry, "key_id", where);
    String actorId = text(entry, "actor_id", where);
    Optional<Instant> revokedAt = Optional.empty();
    if (entry.has("revoked_at")) {
      try {
        revokedAt = Optional.of(OffsetDateTime.parse(text(entry, "revoked_at", where)).toInstant());
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException(where + ": revoked_at must be an RFC 3339 time", e);
      }
    }
    try {
      return new ActorKey(
          keyId, actorId, ActorKey.publicKey(text(entry, "public_key", where)), revokedAt);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + " (" + keyId + "): " + e.getMessage(), e);
    }
  }

  private static String text(JsonNode entry, String name, String where) {
    JsonNode value = entry.path(name);
    if (!value.isTextual() || value.asText().isEmpty()) {
      throw new IllegalArgumentException(where + ": " + name + " must be a non-empty string");
    }
    return value.asText();
  }

  private static void onlyMembers(JsonNode object, String where, Set<String> allowed) {
    object
        .fieldNames()
        .forEachRemaining(
            name -> {
              if (!allowed.contains(name)) {
                throw new IllegalArgumentException(where + " has an unknown member " + name);
              }
            });
  }

  /** The key of this id, if known. */
  public Optional<ActorKey> key(String keyId) {
    return Optional.ofNullable(keys.get(keyId));
  }

  /** Every key, in the order given. */
  public List<ActorKey> keys() {
    return List.copyOf(keys.values());
  }

  /** Whether {@code actorId} must sign every event it appends. */
  public boolean mustSign(String actorId) {
    return mustSign.contains(actorId);
  }

  /** The Actors that must sign. */
  public Set<String> mustSign() {
    return mustSign;
  }

  /** Whether no key is held (a host then verifies nothing but refuses every signature). */
  public boolean isEmpty() {
    return keys.isEmpty();
  }

  /**
   * One event's signature, judged against these keys: the key must be known, of the event's {@code
   * actor_id}, not revoked at {@code at}, and the signature must hold over the event's recomputed
   * hash.
   *
   * @param at when the key must be valid: a host's append time, an auditor's event timestamp
   */
  public SignatureCheck check(JsonNode event, Instant at) {
    JsonNode signature = event.path(EventSignature.SIGNATURE_FIELD);
    JsonNode keyRef = event.path(EventSignature.KEY_REF_FIELD);
    if (signature.isMissingNode() && keyRef.isMissingNode()) {
      return new SignatureCheck(Outcome.UNSIGNED, Optional.empty(), "the event is not signed");
    }
    if (!keyRef.isTextual()) {
      return new SignatureCheck(
          Outcome.UNKNOWN_KEY,
          Optional.empty(),
          "the event carries an actor_signature but no signing_key_ref naming its key");
    }
    String keyId = keyRef.asText();
    Optional<String> named = Optional.of(keyId);
    if (!signature.isTextual()) {
      return new SignatureCheck(
          Outcome.BAD_SIGNATURE,
          named,
          "the event names a signing_key_ref but carries no actor_signature");
    }
    ActorKey key = keys.get(keyId);
    String actorId = event.path("actor_id").asText();
    if (key == null) {
      return new SignatureCheck(
          // Not echoed: the ref is the sender's text, not a key id the host's operator chose.
          Outcome.UNKNOWN_KEY, named, SignatureCheck.UNKNOWN_KEY_REASON);
    }
    if (!key.actorId().equals(actorId)) {
      return new SignatureCheck(
          Outcome.KEY_OF_ANOTHER_ACTOR,
          named,
          "key " + keyId + " is another Actor's key, not " + actorId + "'s");
    }
    if (key.revokedAt(at)) {
      return new SignatureCheck(
          Outcome.REVOKED_KEY,
          named,
          "key " + keyId + " was revoked at " + key.revokedAt().orElseThrow());
    }
    String hash;
    try {
      hash = EventHash.of(event);
    } catch (CanonicalizationException e) {
      return new SignatureCheck(
          Outcome.BAD_SIGNATURE, named, "the event has no hash for a signature to cover");
    }
    if (!EventSignature.verifies(hash, signature.asText(), key.publicKey())) {
      return new SignatureCheck(
          Outcome.BAD_SIGNATURE,
          named,
          "the actor_signature is not key " + keyId + "'s signature of the event's hash");
    }
    return new SignatureCheck(Outcome.VERIFIED, named, "signed with key " + keyId);
  }

  /**
   * What a host refuses of an appended event: a signature that fails {@link #check}, or no
   * signature from an Actor that {@link #mustSign(String) must sign}; both {@code
   * unauthorized_actor}.
   *
   * @param at the host's clock when it appends the event
   */
  public Optional<ProtocolViolation> refusal(JsonNode event, Instant at) {
    SignatureCheck check = check(event, at);
    if (check.failed()) {
      return Optional.of(check.toViolation());
    }
    String actorId = event.path("actor_id").asText();
    if (check.outcome() == Outcome.UNSIGNED && mustSign(actorId)) {
      return Optional.of(
          new ProtocolViolation(
              ProtocolErrorId.UNAUTHORIZED_ACTOR,
              SignatureCheck.OBJECT,
              "/" + EventSignature.SIGNATURE_FIELD,
              "Actor " + actorId + " must sign every event it appends; this one is not signed.",
              SignatureCheck.REMEDIATION));
    }
    return Optional.empty();
  }

  @Override
  public String toString() {
    return "ActorKeys[" + keys.size() + " keys, must sign " + mustSign + "]";
  }
}
