package dev.jarvis.testkit;

import dev.jarvis.core.headers.HeaderLookup;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * One HTTP request as the stub host sees it, independent of the HTTP server that carried it.
 *
 * @param method the HTTP method, upper case
 * @param path the request path without query, e.g. {@code /work-sessions/ws-1/events}
 * @param headers every header line, by name as sent
 * @param body the body bytes, empty when there is none
 * @param rawQuery the query string as it travelled, without {@code ?}; empty when there is none
 *     (the {@code event-log} read takes its page from it)
 */
public record StubRequest(
    String method, String path, Map<String, List<String>> headers, byte[] body, String rawQuery) {

  public StubRequest {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(path, "path");
    headers = Map.copyOf(headers);
    body = body.clone();
    Objects.requireNonNull(rawQuery, "rawQuery");
  }

  /** A request without a query string. */
  public StubRequest(String method, String path, Map<String, List<String>> headers, byte[] body) {
    this(method, path, headers, body, "");
  }

  /** A case-insensitive lookup of the headers, joining repeated lines. */
  public Function<String, Optional<String>> lookup() {
    return HeaderLookup.ofLists(headers);
  }

  /** One header's value, case-insensitively. */
  public Optional<String> header(String name) {
    return lookup().apply(name);
  }

  @Override
  public byte[] body() {
    return body.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StubRequest r
        && method.equals(r.method)
        && path.equals(r.path)
        && headers.equals(r.headers)
        && Arrays.equals(body, r.body)
        && rawQuery.equals(r.rawQuery);
  }

  @Override
  public int hashCode() {
    return Objects.hash(method, path, headers, Arrays.hashCode(body), rawQuery);
  }

  @Override
  public String toString() {
    return method + " " + path;
  }
}
