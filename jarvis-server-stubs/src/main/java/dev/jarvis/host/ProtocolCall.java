package dev.jarvis.host;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.ProtocolOperation;
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
 * @param pathParameters path parameter values by the spec's names
 * @param mutationHeaders the parsed mutation headers; empty for reads
 * @param rawBody the body bytes, empty for reads
 * @param body the body as a tree; a missing node for reads
 */
public record ProtocolCall(
    ProtocolOperation operation,
    String actorId,
    Map<String, String> pathParameters,
    Optional<MutationHeaders> mutationHeaders,
    byte[] rawBody,
    JsonNode body) {

  public ProtocolCall {
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(actorId, "actorId");
    pathParameters = Map.copyOf(pathParameters);
    Objects.requireNonNull(mutationHeaders, "mutationHeaders");
    rawBody = rawBody.clone();
    Objects.requireNonNull(body, "body");
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

  /** The mutation headers; only for mutations. */
  public MutationHeaders mutation() {
    return mutationHeaders.orElseThrow(
        () -> new IllegalStateException(operation.operationId() + " is a read"));
  }
}
