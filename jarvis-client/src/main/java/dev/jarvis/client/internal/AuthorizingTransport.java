package dev.jarvis.client.internal;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Sets {@code Authorization} (HostAuth) and {@code User-Agent} on every attempt. The credential is
 * asked for per attempt, so a refreshed token is used by the retry that follows an expiry.
 */
public final class AuthorizingTransport implements Transport {

  private final Transport next;
  private final Supplier<Optional<String>> credentials;
  private final String userAgent;

  public AuthorizingTransport(
      Transport next, Supplier<Optional<String>> credentials, String userAgent) {
    this.next = next;
    this.credentials = credentials;
    this.userAgent = userAgent;
  }

  @Override
  public Exchange send(HttpRequest request, int attempt) throws IOException, InterruptedException {
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(request, (name, value) -> !name.equalsIgnoreCase("Authorization"))
            .setHeader("User-Agent", userAgent);
    credentials.get().ifPresent(value -> builder.setHeader("Authorization", value));
    return next.send(builder.build(), attempt);
  }
}
