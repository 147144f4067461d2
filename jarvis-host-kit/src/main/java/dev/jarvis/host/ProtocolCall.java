package dev.jarvis.host;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.eventlog.EventLog;
import dev.jarvis.core.headers.MutationHeaders;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A request that passed the request guard: the operation, the acting Actor, and the body exactly as
 * it travelled (bytes) and as a tree read from those bytes.
 *
 * @param operation the spec operation
 * @param actorId {@code Jarvis-Actor-Id}
 * @param pathParameters path parameter values by the spec's names; for the {@code event-log} read
 *     also the raw query string, under {@link EventLog#RAW_QUERY}
 * @param mutationHeaders the parsed mutation headers; empty for reads
 * @param rawBody the body bytes, empty for reads
 * @param body the body as a tree; a missing node for reads
 * @param traceId the {@code trace_id} for this call's {@code ProtocolError}s, taken from the
 *     request's W3C {@code traceparent}; empty for the host's own supplier
 * @param actorRecord the acting Actor's record as the request guard read it, so that the rest of
 *     this request reads it no more; it lives as long as the call only, since another host instance
 *     may change the Actor. Empty for registrations (whose admin Actor is no record) and for a call
 *     built without the guard, whose handling reads the Actor itself.
 */
public record ProtocolCall(
    ProtocolOperation operation,
    String actorId,
    Map<String, String> pathParameters,
    Optional<MutationHeaders> mutationHeaders,
    byte[] rawBody,
    JsonNode body,
    Optional<String> traceId,
    Optional<JsonNode> actorRecord) {

  public ProtocolCall {
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(actorId, "actorId");
    pathParameters = Map.copyOf(pathParameters);
    Objects.requireNonNull(mutationHeaders, "mutationHeaders");
    rawBody = rawBody.clone();
    Objects.requireNonNull(body, "body");
    Objects.requireNonNull(traceId, "traceId");
    Objects.requireNonNull(actorRecord, "actorRecord");
  }

  /** A call whose handling reads the acting Actor's record itself. */
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

  /** A call whose errors take their {@code trace_id} from the host's supplier. */
  public ProtocolCall(
      ProtocolOperation operation,
      String actorId,
      Map<String, String> pathParameters,
      Optional<MutationHeaders> mutationHeaders,
      byte[] rawBody,
      JsonNode body) {
    this(operation, actorId, pathParameters, mutationHeaders, rawBody, body, Optional.empty());
  }

  /** The same call, its errors traced as {@code traceId}. */
  public ProtocolCall tracedAs(Optional<String> traceId) {
    return new ProtocolCall(
        operation, actorId, pathParameters, mutationHeaders, rawBody, body, traceId, actorRecord);
  }

  @Override
  public byte[] rawBody() {
    return rawBody.clone();
  }

  /** The operationId. */
  public String operationId() {
    return operation.operationId();
  }

  /** The {@code work_session_id} path parameter, if the operation has one. */
  public Optional<String> workSessionId() {
    return Optional.ofNullable(pathParameters.get("work_session_id"));
  }

  /**
   * The page the {@code event-log} read asks for.
   *
   * @throws dev.jarvis.core.eventlog.EventLogQueryException if its query values name none
   */
  public EventLog.PageRequest eventPage() {
    return EventLog.request(pathParameters);
  }

  /** The mutation headers; only for mutations. */
  public MutationHeaders mutation() {
    return mutationHeaders.orElseThrow(
        () -> new IllegalStateException(operation.operationId() + " is a read"));
  }
}
