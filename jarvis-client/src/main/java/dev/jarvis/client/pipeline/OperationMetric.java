package dev.jarvis.client.pipeline;

import dev.jarvis.client.JarvisFailure;
import dev.jarvis.model.ProtocolErrorId;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link OperationMetricsPolicy} records of one call: what a metrics or tracing library needs
 * to count, time and correlate it. Never a body, never a credential.
 *
 * @param operationId the spec's operationId
 * @param latency from the call entering the policy to its outcome leaving it
 * @param attempts attempts the call took; 0 when it failed before an answer came back
 * @param failure the kind of failure; empty on success
 * @param errorId the {@code error_id} of a refusal
 * @param traceId the host's {@code trace_id}, where the failure carries one
 */
public record OperationMetric(
    String operationId,
    Duration latency,
    int attempts,
    Optional<JarvisFailure.Kind> failure,
    Optional<ProtocolErrorId> errorId,
    Optional<String> traceId) {

  public OperationMetric {
    Objects.requireNonNull(operationId, "operationId");
    Objects.requireNonNull(latency, "latency");
    Objects.requireNonNull(failure, "failure");
    Objects.requireNonNull(errorId, "errorId");
    Objects.requireNonNull(traceId, "traceId");
  }

  /** Whether the call succeeded. */
  public boolean succeeded() {
    return failure.isEmpty();
  }
}
