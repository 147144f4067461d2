package dev.jarvis.host;

import java.util.Objects;
import java.util.Set;

/**
 * Who an authenticated caller is, as HostAuth resolved it: the Actor ids it may name in {@code
 * Jarvis-Actor-Id} and whether it may administer the host (register Workers and Actors). The
 * protocol's Actor authority is checked on top of this: a principal that may act as an Actor gets
 * no more than that Actor's own authority.
 *
 * @param anyActor whether the caller may act as every Actor (demo mode and test stubs only)
 * @param actorIds the Actor ids the caller may act as, when not {@code anyActor}
 * @param admin whether the caller may register Workers and Actors
 */
public record Principal(boolean anyActor, Set<String> actorIds, boolean admin) {

  public Principal {
    actorIds = Set.copyOf(actorIds);
  }

  /** A caller bound to these Actors. */
  public static Principal of(Set<String> actorIds, boolean admin) {
    return new Principal(false, actorIds, admin);
  }

  /**
   * A caller that may act as any Actor and administer the host: the demo mode of a single shared
   * token, and test stubs where HostAuth is not under test.
   */
  public static Principal anyActorAdmin() {
    return new Principal(true, Set.of(), true);
  }

  /** Whether the caller may name {@code actorId} in {@code Jarvis-Actor-Id}. */
  public boolean mayActAs(String actorId) {
    Objects.requireNonNull(actorId, "actorId");
    return anyActor || actorIds.contains(actorId);
  }
}
