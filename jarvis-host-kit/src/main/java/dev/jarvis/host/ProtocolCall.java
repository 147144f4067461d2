package dev.jarvis.host;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.exchange.ProtocolExchange;
import dev.jarvis.core.exchange.RequestBody;
import dev.jarvis.core.headers.ActorId;
import dev.jarvis.core.headers.MutationHeaders;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A request that passed the request guard: the typed {@link ProtocolExchange} the guard read once
 * (operation, acting Actor, path ids, cursor, idempotency key, timestamp, body bytes and tree), and
 * what the guard learnt on the way.
 *
 * @param exchange the request, read once
 * @param traceId the {@code trace_id} for this call's {@code ProtocolError}s, taken from the
 *     request's W3C {@code traceparent}; empty for the host's own supplier
 * @param actorRecord the acting Actor's record as the request guard read it, so that the rest of
 *     this request reads it no more; it lives as long as the call only, since another host instance
 *     may change the Actor. Empty for registrations (whose admin Actor is no record) and for a call
 *     built without the guard, whose handling reads the Actor itself.
 */
public record ProtocolCall(
    ProtocolExchange exchange, Optional<String> traceId, Optional<JsonNode> actorRecord) {

  public ProtocolCall {
    Objects.requireNonNull(exchange, "exchange");
    Objects.requireNonNull(traceId, "traceId");
    Objects.requireNonNull(actorRecord, "actorRecord");
  }

  /**
   * A call from its parts.
   *
   * @deprecated build the {@link ProtocolExchange} and use {@link #ProtocolCall(ProtocolExchange,
   *     Optional, Optional)}; this bridge copies the bytes and trusts that {@code body} was read
   *     from them.
   */
  @Deprecated
  public ProtocolCall(
      ProtocolOperation operation,
      String actorId,
      Map<String, String> pathParameters,
      Optional<MutationHeaders> mutationHeaders,
      byte[] rawBody,
      JsonNode body,
      Optional<String> traceId,
      Optional<JsonNode> actorRecord) {
    this(
        exchangeOf(operation, actorId, pathParameters, mutationHeaders, rawBody, body),
        traceId,
        actorRecord);
  }

  /**
   * A call whose handling reads the acting Actor's record itself.
   *
   * @deprecated see {@link #ProtocolCall(ProtocolExchange, Optional, Optional)}
   */
  @Deprecated
  public ProtocolCall(
      ProtocolOperation operation,
      String actorId,
      Map<String, String> pathParameters,
      Optional<MutationHeaders> mutationHeaders,
      byte[] rawBody,
      JsonNode body,
      Optional<String> traceId) {
    this(
        operation,
        actorId,
        pathParameters,
        mutationHeaders,
        rawBody,
        body,
        traceId,
        Optional.empty());
  }

  /**
   * A call whose errors take their {@code trace_id} from the host's supplier.
   *
   * @deprecated see {@link #ProtocolCall(ProtocolExchange, Optional, Optional)}
   */
  @Deprecated
  public ProtocolCall(
      ProtocolOperation operation,
      String actorId,
      Map<String, String> pathParameters,
      Optional<MutationHeaders> mutationHeaders,
      byte[] rawBody,
      JsonNode body) {
    this(operation, actorId, pathParameters, mutationHeaders, rawBody, body, Optional.empty());
  }

  private static ProtocolExchange exchangeOf(
      ProtocolOperation operation,
      String actorId,
      Map<String, String> pathParameters,
      Optional<MutationHeaders> mutationHeaders,
      byte[] rawBody,
      JsonNode body) {
    RequestBody carried = RequestBody.of(rawBody, body);
    return mutationHeaders
        .map(headers -> ProtocolExchange.of(operation, headers, pathParameters, carried))
        .orElseGet(
            () ->
                new ProtocolExchange(
                    operation,
                    new ActorId(actorId),
                    pathParameters,
                    Optional.empty(),
                    Optional.empty(),
                    Optional.empty(),
                    carried));
  }

  /** The same call, its errors traced as {@code traceId}. */
  public ProtocolCall tracedAs(Optional<String> traceId) {
    return new ProtocolCall(exchange, traceId, actorRecord);
  }

  /** The spec operation. */
  public ProtocolOperation operation() {
    return exchange.operation();
  }

  /** {@code Jarvis-Actor-Id}. */
  public String actorId() {
    return exchange.actorId();
  }

  /**
   * Path parameter values by the spec's names; for the {@code event-log} read also the raw query
   * string, under {@link EventLog#RAW_QUERY}.
   */
  public Map<String, String> pathParameters() {
    return exchange.pathIds();
  }

  /** The parsed mutation headers; empty for reads. */
  public Optional<MutationHeaders> mutationHeaders() {
    return exchange.mutationHeaders();
  }

  /** A copy of the body bytes as they travelled, empty for reads. */
  public byte[] rawBody() {
    return exchange.body().bytes();
  }

  /** The body as the one tree read from its bytes; a missing node for reads. */
  public JsonNode body() {
    return exchange.tree();
  }

  /** The operationId. */
  public String operationId() {
    return exchange.operationId();
  }

  /** The {@code work_session_id} path parameter, if the operation has one. */
  public Optional<String> workSessionId() {
    return exchange.workSessionId();
  }

  /**
   * The page the {@code event-log} read asks for.
   *
   * @throws dev.jarvis.core.eventlog.EventLogQueryException if its query values name none
   */
  public EventLog.PageRequest eventPage() {
    return EventLog.request(exchange.pathIds());
  }

  /** The mutation headers; only for mutations. */
  public MutationHeaders mutation() {
    return mutationHeaders()
        .orElseThrow(() -> new IllegalStateException(operation().operationId() + " is a read"));
  }
}
