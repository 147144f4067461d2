package dev.jarvis.conformance;

import java.util.Objects;

/**
 * A bearer token the host under test binds to one Actor, for one of the suite's roles.
 *
 * @param actorId the Actor the token may act as; the suite registers it under its own Workers
 * @param token sent as {@code Authorization: Bearer <token>}; never printed, recorded or reported
 */
public record ActorCredential(String actorId, String token) {

  public ActorCredential {
    Objects.requireNonNull(actorId, "actorId");
    Objects.requireNonNull(token, "token");
    if (actorId.isBlank() || token.isBlank()) {
      throw new IllegalArgumentException("a credential needs an Actor id and a token");
    }
  }

  @Override
  public String toString() {
    return "ActorCredential[actorId=" + actorId + ", token=(hidden)]";
  }
}
