package dev.jarvis.conformance;

import dev.jarvis.core.signature.SigningKey;
import java.util.Objects;

/**
 * An Actor the host under test requires to sign every event it appends, and one of its keys: what
 * the suite needs to check that the host refuses unsigned and badly signed events. The suite
 * registers this Actor under its human Worker (a second registration of an id replaces it), so the
 * host's key file names the Actor id given here with the public half of {@code key}.
 *
 * @param actorId the Actor, in the host's {@code must_sign}; not the suite's own human or agent
 * @param key its private key and key id, as the host's key file lists them
 */
public record RequiredSigner(String actorId, SigningKey key) {

  public RequiredSigner {
    Objects.requireNonNull(actorId, "actorId");
    Objects.requireNonNull(key, "key");
  }
}
