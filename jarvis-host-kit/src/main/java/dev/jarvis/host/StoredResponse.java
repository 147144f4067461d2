package dev.jarvis.host;

import java.util.Arrays;
import java.util.Map;
import java.util.Objects;

/**
 * A response exactly as it was sent: kept by the idempotency store so that a replay answers with
 * the same status, protocol headers and body bytes as the first attempt.
 *
 * @param status the HTTP status
 * @param headers response headers set by the host (protocol and cursor headers, content type)
 * @param body the body bytes
 */
public record StoredResponse(int status, Map<String, String> headers, byte[] body) {

  public StoredResponse {
    headers = Map.copyOf(headers);
    body = Objects.requireNonNull(body, "body").clone();
  }

  @Override
  public byte[] body() {
    return body.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StoredResponse other
        && status == other.status
        && headers.equals(other.headers)
        && Arrays.equals(body, other.body);
  }

  @Override
  public int hashCode() {
    return Objects.hash(status, headers, Arrays.hashCode(body));
  }

  @Override
  public String toString() {
    return "StoredResponse[status=" + status + ", headers=" + headers + "]";
  }
}
