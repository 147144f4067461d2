package dev.jarvis.core.exchange;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.ProtocolOperation;
import dev.jarvis.core.headers.ActorId;
import dev.jarvis.core.headers.IdempotencyKey;
import dev.jarvis.core.headers.MutationHeaders;
import dev.jarvis.core.headers.ProtocolVersion;
import dev.jarvis.core.headers.RequestTimestamp;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One protocol request, read once: what every hop after the guard needs, typed. Headers are parsed
 * here and nowhere after; the body is read here ({@link BodyReader}) and never again.
 *
 * @param operation the spec operation
 * @param actor {@code Jarvis-Actor-Id}
 * @param pathIds path parameter values by the spec's names (the host kit carries the query string
 *     apart, parsed, as {@code ProtocolCall.query()})
 * @param cursor the expected cursor, for WorkSession mutations
 * @param idempotencyKey {@code Jarvis-Idempotency-Key}, for mutations
 * @param requestTimestamp {@code Jarvis-Request-Timestamp}, for mutations
 * @param body the body, bytes and tree; {@link RequestBody#empty()} for reads
 */
public record ProtocolExchange(
    ProtocolOperation operation,
    ActorId actor,
    Map<String, String> pathIds,
    Optional<ExpectedCursor> cursor,
    Optional<IdempotencyKey> idempotencyKey,
    Optional<RequestTimestamp> requestTimestamp,
    RequestBody body) {

  public ProtocolExchange {
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(actor, "actor");
    pathIds = Map.copyOf(pathIds);
    Objects.requireNonNull(cursor, "cursor");
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    Objects.requireNonNull(requestTimestamp, "requestTimestamp");
    Objects.requireNonNull(body, "body");
    if (idempotencyKey.isPresent() != requestTimestamp.isPresent()) {
      throw new IllegalArgumentException(
          "a mutation carries both an idempotency key and a request timestamp, a read neither");
    }
  }

  /** A mutation's exchange, from its parsed headers. */
  public static ProtocolExchange of(
      ProtocolOperation operation,
      MutationHeaders headers,
      Map<String, String> pathIds,
      RequestBody body) {
    Optional<ExpectedCursor> cursor =
        headers
            .expectedRevision()
            .map(r -> new ExpectedCursor(r, headers.previousEventHash().orElseThrow()));
    return new ProtocolExchange(
        operation,
        headers.actorId(),
        pathIds,
        cursor,
        Optional.of(headers.idempotencyKey()),
        Optional.of(headers.requestTimestamp()),
        body);
  }

  /** A read's exchange: no key, no timestamp, no cursor, no body. */
  public static ProtocolExchange read(
      ProtocolOperation operation, ActorId actor, Map<String, String> pathIds) {
    return new ProtocolExchange(
        operation,
        actor,
        pathIds,
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        RequestBody.empty());
  }

  /** Whether the operation writes. */
  public boolean isMutation() {
    return idempotencyKey.isPresent();
  }

  /** The operationId. */
  public String operationId() {
    return operation.operationId();
  }

  /** The acting Actor's id. */
  public String actorId() {
    return actor.value();
  }

  /** The body's tree: a missing node for reads. */
  public JsonNode tree() {
    return body.tree();
  }

  /** The {@code work_session_id} path parameter, if the operation has one. */
  public Optional<String> workSessionId() {
    return Optional.ofNullable(pathIds.get("work_session_id"));
  }

  /** The mutation headers as they were parsed; empty for reads. */
  public Optional<MutationHeaders> mutationHeaders() {
    if (!isMutation()) {
      return Optional.empty();
    }
    return Optional.of(
        new MutationHeaders(
            ProtocolVersion.V0_1,
            actor,
            idempotencyKey.orElseThrow(),
            requestTimestamp.orElseThrow(),
            cursor.map(ExpectedCursor::revision),
            cursor.map(ExpectedCursor::previousEventHash)));
  }
}
