package dev.jarvis.client.pipeline;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.JarvisCall;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.ProtocolOperation;
import java.net.URI;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A request on its way down the pipeline: the call it serves, the acting Actor, the URI, the
 * headers set so far and the JSON body. Immutable: the {@code with*} methods return changed copies.
 *
 * <p>The body is a JSON tree so that the links that read it (validation, the event chain) need not
 * parse anything; it is encoded to bytes once, when first asked for, and every attempt sends those
 * bytes. Do not mutate the tree {@link #body()} returns: replace it with {@link #withBody}.
 */
public final class PipelineRequest {

  private final JarvisCall<?> call;
  private final String actorId;
  private final URI uri;
  private final SortedMap<String, String> headers;
  private final Optional<Body> body;
  private final int attempt;

  private PipelineRequest(
      JarvisCall<?> call,
      String actorId,
      URI uri,
      SortedMap<String, String> headers,
      Optional<Body> body,
      int attempt) {
    this.call = call;
    this.actorId = actorId;
    this.uri = uri;
    this.headers = headers;
    this.body = body;
    this.attempt = attempt;
  }

  /** A request with no headers yet, before its first attempt. */
  public static PipelineRequest of(
      JarvisCall<?> call, String actorId, URI uri, Optional<JsonNode> body) {
    return new PipelineRequest(
        Objects.requireNonNull(call, "call"),
        Objects.requireNonNull(actorId, "actorId"),
        Objects.requireNonNull(uri, "uri"),
        Collections.unmodifiableSortedMap(new TreeMap<>(String.CASE_INSENSITIVE_ORDER)),
        body.map(Body::new),
        0);
  }

  /** The call this request serves. */
  public JarvisCall<?> call() {
    return call;
  }

  /** The call's operation, as the spec describes it. */
  public ProtocolOperation operation() {
    return call.operation();
  }

  /** The acting Actor ({@code Jarvis-Actor-Id}). */
  public String actorId() {
    return actorId;
  }

  public URI uri() {
    return uri;
  }

  /** The HTTP method, from the spec. */
  public String method() {
    return call.operation().httpMethod();
  }

  /** The headers set so far; names are case-insensitive. */
  public Map<String, String> headers() {
    return headers;
  }

  /** One header's value, if set. */
  public Optional<String> header(String name) {
    return Optional.ofNullable(headers.get(name));
  }

  /** The JSON body, if the operation has one. Read it; never mutate it. */
  public Optional<JsonNode> body() {
    return body.map(b -> b.tree);
  }

  /** The body as the bytes every attempt sends (a copy; encoded once). */
  public Optional<byte[]> encodedBody() {
    return body.map(b -> b.bytes().clone());
  }

  /** Which attempt this is, from 1; 0 while the request is still in the per-call links. */
  public int attempt() {
    return attempt;
  }

  /** This request with one header set (replacing any value it had). */
  public PipelineRequest withHeader(String name, String value) {
    return withHeaders(Map.of(name, value));
  }

  /** This request with these headers set (replacing any values they had). */
  public PipelineRequest withHeaders(Map<String, String> more) {
    TreeMap<String, String> changed = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    changed.putAll(headers);
    more.forEach(
        (name, value) -> {
          // Put after remove, so the header takes the spelling given here.
          changed.remove(name);
          changed.put(Objects.requireNonNull(name), Objects.requireNonNull(value, name));
        });
    return withHeaderMap(changed);
  }

  /** This request without a header. */
  public PipelineRequest withoutHeader(String name) {
    if (!headers.containsKey(name)) {
      return this;
    }
    TreeMap<String, String> changed = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    changed.putAll(headers);
    changed.remove(name);
    return withHeaderMap(changed);
  }

  /** This request with another body. */
  public PipelineRequest withBody(JsonNode body) {
    return new PipelineRequest(call, actorId, uri, headers, Optional.of(new Body(body)), attempt);
  }

  /** This request as attempt {@code attempt}. */
  public PipelineRequest withAttempt(int attempt) {
    return new PipelineRequest(call, actorId, uri, headers, body, attempt);
  }

  private PipelineRequest withHeaderMap(TreeMap<String, String> changed) {
    return new PipelineRequest(
        call, actorId, uri, Collections.unmodifiableSortedMap(changed), body, attempt);
  }

  /** A body tree and its bytes, encoded once and shared by every copy of the request. */
  private static final class Body {
    private final JsonNode tree;
    private volatile byte[] bytes;

    Body(JsonNode tree) {
      this.tree = Objects.requireNonNull(tree, "body");
    }

    byte[] bytes() {
      byte[] encoded = bytes;
      if (encoded == null) {
        try {
          encoded = JarvisJson.mapper().writeValueAsBytes(tree);
        } catch (JsonProcessingException e) {
          throw new IllegalArgumentException("the body cannot be written as JSON", e);
        }
        bytes = encoded;
      }
      return encoded;
    }
  }

  @Override
  public String toString() {
    // Never the body, never Authorization.
    return method() + " " + uri.getRawPath() + " (" + operation().operationId() + ")";
  }
}
