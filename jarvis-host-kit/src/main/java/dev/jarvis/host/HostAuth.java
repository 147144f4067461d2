package dev.jarvis.host;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Objects;
import java.util.Optional;

/**
 * The spec's {@code HostAuth}: the host's own caller authentication, checked before any protocol
 * rule. Jarvis leaves the credential format to the host, so a host team plugs in its own resolver
 * (API keys, mTLS, OIDC): it turns the {@code Authorization} header into a {@link Principal}, the
 * Actors the caller may act as. No principal is answered with HTTP 401 and a {@code ProtocolError}
 * of {@code unauthorized_actor}; a {@code Jarvis-Actor-Id} outside the principal's Actors is
 * refused {@code unauthorized_actor} before anything else is looked at.
 */
@FunctionalInterface
public interface HostAuth {

  /**
   * The caller's principal, or empty when the {@code Authorization} header (empty when absent) does
   * not authenticate a caller. Never log or echo the header.
   */
  Optional<Principal> principal(Optional<String> authorization);

  /**
   * Demo mode: one shared {@code Authorization: Bearer <token>}, compared in constant time, whose
   * holder may act as any Actor and administer the host. Use {@link Credentials} to bind tokens to
   * Actors.
   */
  static HostAuth bearer(String token) {
    Objects.requireNonNull(token, "token");
    if (token.isBlank()) {
      throw new IllegalArgumentException("the bearer token must not be blank");
    }
    byte[] expected = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
    return authorization ->
        authorization.isPresent()
                && MessageDigest.isEqual(
                    expected, authorization.get().strip().getBytes(StandardCharsets.UTF_8))
            ? Optional.of(Principal.anyActorAdmin())
            : Optional.empty();
  }

  /**
   * Accepts every caller, with or without credentials, as any Actor. For test stubs only (the test
   * kit's {@code JarvisHostStub}), where HostAuth is not what is under test.
   */
  static HostAuth anyCaller() {
    return authorization -> Optional.of(Principal.anyActorAdmin());
  }
}
