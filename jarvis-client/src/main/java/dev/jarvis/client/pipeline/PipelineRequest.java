package dev.jarvis.client.pipeline;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.JarvisCall;
import dev.jarvis.client.internal.AttemptNumbering;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.ProtocolOperation;
import java.net.URI;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A request on its way down the pipeline: its {@link CallContext} (the call it serves, the acting
 * Actor, the WorkSession cursor and idempotency key, typed), the URI, the headers set so far and
 * the JSON body. Immutable: the {@code with*} methods return changed copies.
 *
 * <p>The body is a JSON tree so that the links that read it (validation, the event chain) need not
 * parse anything; it is encoded to bytes once, when first asked for, and every attempt sends those
 * bytes. Do not mutate the tree {@link #body()} returns.
 *
 * <p>The pipeline holds every link to its contract and fails the call with {@link
 * PipelineContractException}, naming the link, when one breaks it: a link passes the request on
 * exactly once (the {@code retry} link once per attempt) and answers only with what came back; it
 * passes on a request of this call (this context) with the idempotency key, WorkSession cursor
 * headers, method, URI and attempt number the pipeline set; below the per-call links (from {@code
 * retry} down) the body bytes are fixed too.
 */
public final class PipelineRequest {

  private final CallContext context;
  private final URI uri;
  private final SortedMap<String, String> headers;
  private final Optional<Body> body;
  private final int attempt;

  static {
    // The pipeline numbers the attempts; no link may, so there is no public way to.
    AttemptNumbering.install(
        (request, attempt) ->
            new PipelineRequest(
                request.context, request.uri, request.headers, request.body, attempt));
  }

  private PipelineRequest(
      CallContext context,
      URI uri,
      SortedMap<String, String> headers,
      Optional<Body> body,
      int attempt) {
    this.context = context;
    this.uri = uri;
    this.headers = headers;
    this.body = body;
    this.attempt = attempt;
  }

  /**
   * A request with no headers yet, outside any client's pipeline (to unit-test a policy): its
   * context has no cursor and no key. A client's pipeline refuses it, since it is not its call's.
   */
  public static PipelineRequest of(
      JarvisCall<?> call, String actorId, URI uri, Optional<JsonNode> body) {
    return of(
        new DetachedContext(
            Objects.requireNonNull(call, "call"), Objects.requireNonNull(actorId, "actorId")),
        uri,
        body);
  }

  /** A request of the call {@code context} describes, with no headers yet, before any attempt. */
  public static PipelineRequest of(CallContext context, URI uri, Optional<JsonNode> body) {
    return new PipelineRequest(
        Objects.requireNonNull(context, "context"),
        Objects.requireNonNull(uri, "uri"),
        Collections.unmodifiableSortedMap(new TreeMap<>(String.CASE_INSENSITIVE_ORDER)),
        body.map(Body::new),
        0);
  }

  /** What the pipeline knows of the call, typed: cursor, idempotency key, cancellation, waits. */
  public CallContext context() {
    return context;
  }

  /** The call this request serves. */
  public JarvisCall<?> call() {
    return context.call();
  }

  /** The call's operation, as the spec describes it. */
  public ProtocolOperation operation() {
    return context.call().operation();
  }

  /** The acting Actor ({@code Jarvis-Actor-Id}). */
  public String actorId() {
    return context.actorId();
  }

  public URI uri() {
    return uri;
  }

  /** The HTTP method, from the spec. */
  public String method() {
    return context.call().operation().httpMethod();
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

  /**
   * Whether {@code other} sends the same body bytes as this request (both none, or equal bytes).
   */
  public boolean sameBody(PipelineRequest other) {
    if (body.equals(other.body)) {
      return true;
    }
    return body.isPresent()
        && other.body.isPresent()
        && Arrays.equals(body.get().bytes(), other.body.get().bytes());
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

  /**
   * This request with another body. Only a per-call policy (above the built-in links, before the
   * body is validated and keyed) may pass such a request on: from the {@code retry} link down, the
   * pipeline refuses a body whose bytes changed with {@link PipelineContractException}.
   */
  public PipelineRequest withBody(JsonNode body) {
    return new PipelineRequest(context, uri, headers, Optional.of(new Body(body)), attempt);
  }

  private PipelineRequest withHeaderMap(TreeMap<String, String> changed) {
    return new PipelineRequest(
        context, uri, Collections.unmodifiableSortedMap(changed), body, attempt);
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
