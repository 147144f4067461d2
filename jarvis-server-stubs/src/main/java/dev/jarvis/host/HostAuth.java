package dev.jarvis.host;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Objects;
import java.util.Optional;

/**
 * The spec's {@code HostAuth}: the host's own caller authentication, checked before any protocol
 * rule. Jarvis leaves the credential format to the host; a request it refuses is answered with HTTP
 * 401 and a {@code ProtocolError} of {@code unauthorized_actor}.
 */
@FunctionalInterface
public interface HostAuth {

  /** Whether the {@code Authorization} header (empty when absent) authenticates the caller. */
  boolean authenticates(Optional<String> authorization);

  /** {@code Authorization: Bearer <token>}, compared in constant time. */
  static HostAuth bearer(String token) {
    Objects.requireNonNull(token, "token");
    if (token.isBlank()) {
      throw new IllegalArgumentException("the bearer token must not be blank");
    }
    byte[] expected = ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
    return authorization ->
        authorization.isPresent()
            && MessageDigest.isEqual(
                expected, authorization.get().strip().getBytes(StandardCharsets.UTF_8));
  }
}
