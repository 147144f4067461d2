package dev.jarvis.client.raw;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One request as it was sent and the host's answer as it came back.
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

  /** The first value of an answer header, its name in any case. */
  public Optional<String> header(String name) {
    String wanted = name.toLowerCase(Locale.ROOT);
    return headers.entrySet().stream()
        .filter(h -> h.getKey().toLowerCase(Locale.ROOT).equals(wanted))
        .flatMap(h -> h.getValue().stream())
        .findFirst();
  }

  /** The answer's body bytes (a copy). */
  @Override
  public byte[] body() {
    return body.clone();
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof RawExchange that
        && request.equals(that.request)
        && status == that.status
        && headers.equals(that.headers)
        && Arrays.equals(body, that.body);
  }

  @Override
  public int hashCode() {
    return Objects.hash(request, status, headers, Arrays.hashCode(body));
  }

  @Override
  public String toString() {
    return request + " -> " + status;
  }
}
