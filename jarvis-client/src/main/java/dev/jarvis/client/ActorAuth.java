package dev.jarvis.client;

import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Where each attempt's HostAuth comes from: the whole {@code Authorization} value for the Actor the
 * attempt acts as ({@code Jarvis-Actor-Id}), or empty to send none. Asked on every attempt, so a
 * refreshed token is picked up by the retry after an expiry, and asked with the acting Actor, so
 * one client (and every {@link JarvisClient#as(String)} view of it, which share one WorkSession
 * cursor store) can hold a separate credential per Actor, the shape of a deployment whose host
 * binds each token to the Actors it may act as.
 *
 * <p>The answer is a stage so that a token fetched from an identity provider need hold no thread:
 * in an asynchronous call the rest of the attempt continues on the client's executor once it
 * completes. The client never logs or echoes what it returns.
 */
@FunctionalInterface
public interface ActorAuth {

  /** The {@code Authorization} value for an attempt acting as {@code actorId}; empty: none. */
  CompletionStage<Optional<String>> authorization(String actorId);

  /** One fixed value for every Actor, e.g. {@code "Bearer abc"}. */
  static ActorAuth fixed(String authorization) {
    Objects.requireNonNull(authorization, "authorization");
    CompletableFuture<Optional<String>> value =
        CompletableFuture.completedFuture(Optional.of(authorization));
    return actorId -> value;
  }

  /** One value for every Actor, asked for on every attempt. */
  static ActorAuth of(Supplier<Optional<String>> authorization) {
    Objects.requireNonNull(authorization, "authorization");
    return actorId -> CompletableFuture.completedFuture(authorization.get());
  }

  /** A value per acting Actor, asked for on every attempt; empty: no credential for that Actor. */
  static ActorAuth perActor(Function<String, Optional<String>> authorizationByActor) {
    Objects.requireNonNull(authorizationByActor, "authorizationByActor");
    return actorId -> CompletableFuture.completedFuture(authorizationByActor.apply(actorId));
  }

  /**
   * Fixed values per Actor id (copied); an Actor the map does not name is sent without {@code
   * Authorization}, which a host refuses with a 401.
   */
  static ActorAuth perActor(Map<String, String> authorizationByActor) {
    Map<String, String> copy = Map.copyOf(authorizationByActor);
    return perActor(actorId -> Optional.ofNullable(copy.get(actorId)));
  }
}
