package dev.jarvis.client.raw;

import dev.jarvis.core.ProtocolOperation;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One request exactly as it goes out: nothing is added to it, nothing checked. Like any record
 * holding an array, two requests are equal only if they hold the same body array.
 *
 * @param method the HTTP method
 * @param uri the whole URI, path and query included
 * @param headers every header to send, in order, each with one value
 * @param body the body bytes; empty for a request without a body
 */
public record RawRequest(String method, URI uri, Map<String, String> headers, byte[] body) {

  public RawRequest {
    Objects.requireNonNull(method, "method");
    Objects.requireNonNull(uri, "uri");
    headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    body = body.clone();
  }

  // Compiled once: a load generator builds a request per call.
  private static final Pattern PATH_PARAMETER = Pattern.compile("\\{[a-z_]+}");
  private static final Pattern TRAILING_SLASHES = Pattern.compile("/+$");

  /**
   * A request for {@code operation} on the host at {@code baseUri}: its method, and its path with
   * the one path parameter (if the operation has one) filled with {@code pathId}, URL-encoded.
   *
   * @param query the raw query string without {@code ?}; empty for none
   */
  public static RawRequest of(
      URI baseUri,
      ProtocolOperation operation,
      Optional<String> pathId,
      String query,
      Map<String, String> headers,
      byte[] body) {
    String path =
        pathId
            .map(
                id ->
                    PATH_PARAMETER
                        .matcher(operation.path())
                        .replaceAll(
                            Matcher.quoteReplacement(
                                URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20"))))
            .orElse(operation.path());
    String base = TRAILING_SLASHES.matcher(baseUri.toString()).replaceAll("");
    return new RawRequest(
        operation.httpMethod(),
        URI.create(base + path + (query.isEmpty() ? "" : "?" + query)),
        headers,
        body);
  }

  /** The body bytes (a copy). */
  @Override
  public byte[] body() {
    return body.clone();
  }

  /** Whether the request has a body. */
  public boolean hasBody() {
    return body.length > 0;
  }

  @Override
  public String toString() {
    // Never the headers: they carry the credential.
    return method + " " + uri + " (" + body.length + " body bytes)";
  }
}
