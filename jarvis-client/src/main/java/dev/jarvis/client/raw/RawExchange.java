package dev.jarvis.client.raw;

import dev.jarvis.core.headers.HeaderLookup;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One request as it was sent and the host's answer as it came back. Like any record holding an
 * array, two exchanges are equal only if they hold the same body array.
 *
 * @param request the request, exactly as sent
 * @param status the answer's HTTP status
 * @param headers the answer's headers, as the JDK reports them (names lower-case)
 * @param body the answer's body bytes; empty when there were none
 */
public record RawExchange(
    RawRequest request, int status, Map<String, List<String>> headers, byte[] body) {

  public RawExchange {
    Objects.requireNonNull(request, "request");
    headers = Map.copyOf(headers);
    body = body.clone();
  }

  /**
   * An answer header, its name in any case; repeated lines combined as {@link HeaderLookup} does.
   */
  public Optional<String> header(String name) {
    return HeaderLookup.ofLists(headers).apply(name);
  }

  /** The answer's body bytes (a copy). */
  @Override
  public byte[] body() {
    return body.clone();
  }

  @Override
  public String toString() {
    return request + " -> " + status;
  }
}
