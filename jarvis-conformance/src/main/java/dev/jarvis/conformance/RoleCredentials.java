package dev.jarvis.conformance;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One credential per role, for a host that binds credentials to Actors (as a real host does)
 * instead of accepting one token acting as anyone. Each request goes out with the token of the
 * Actor it names in {@code Jarvis-Actor-Id}; a request naming none (the suite's missing-header
 * checks) goes out with the human's.
 *
 * @param admin a credential that may administer, bound to the Actor that registers Workers and
 *     Actors (the host's admin Actor)
 * @param human a credential bound to the Actor the suite registers as its human
 * @param agent a credential bound to the Actor the suite registers as its agent
 * @param outsider a credential bound to the Actor the suite registers outside its WorkSessions;
 *     without one, the outsider's requests carry the human's token, and a host refuses them at the
 *     credential layer ({@code unauthorized_actor} still, but before it looks at membership)
 */
public record RoleCredentials(
    ActorCredential admin,
    ActorCredential human,
    ActorCredential agent,
    Optional<ActorCredential> outsider) {

  public RoleCredentials {
    Objects.requireNonNull(admin, "admin");
    Objects.requireNonNull(human, "human");
    Objects.requireNonNull(agent, "agent");
    Objects.requireNonNull(outsider, "outsider");
    Map<String, String> seen = new LinkedHashMap<>();
    for (ActorCredential c : new ActorCredential[] {admin, human, agent, outsider.orElse(null)}) {
      if (c != null && seen.put(c.actorId(), c.token()) != null) {
        throw new IllegalArgumentException(
            "each role needs an Actor of its own; " + c.actorId() + " is named twice");
      }
    }
  }

  /** Admin, human and agent, with no outsider credential. */
  public static RoleCredentials of(
      ActorCredential admin, ActorCredential human, ActorCredential agent) {
    return new RoleCredentials(admin, human, agent, Optional.empty());
  }

  /**
   * Refuses role Actors outside the run's prefix: the suite registers the human's, agent's and
   * outsider's Actors itself, and a registration replaces an Actor of the same id, so an id outside
   * the prefix could be a live Actor of the host. The admin's is the host's own admin Actor, which
   * is never registered.
   */
  void requireUnder(String runPrefix) {
    for (ActorCredential c : new ActorCredential[] {human, agent, outsider.orElse(null)}) {
      if (c != null && !c.actorId().startsWith(runPrefix)) {
        throw new IllegalArgumentException(
            "the suite registers the human, agent and outsider Actors itself and never an Actor"
                + " outside this run's prefix "
                + runPrefix
                + ": bind their credentials to Actor ids starting with it (fresh for each run),"
                + " not "
                + c.actorId());
      }
    }
  }

  /** The token for a request naming {@code actorId} (or none). */
  String tokenFor(Optional<String> actorId) {
    for (ActorCredential c : new ActorCredential[] {admin, human, agent, outsider.orElse(null)}) {
      if (c != null && actorId.isPresent() && c.actorId().equals(actorId.get())) {
        return c.token();
      }
    }
    return human.token();
  }
}
