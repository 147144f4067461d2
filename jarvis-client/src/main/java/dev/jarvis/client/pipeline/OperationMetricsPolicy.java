package dev.jarvis.client.pipeline;

import dev.jarvis.client.JarvisFailure;
import dev.jarvis.client.JarvisRefusalException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * An example per-call policy, and the hook a metrics or tracing library would use: it times each
 * call and hands an {@link OperationMetric} (operation, latency, attempts, failure kind, {@code
 * error_id}, {@code trace_id}) to a sink. Added first, it sees the call as the caller does: retries
 * and a WorkSession re-read inside the latency, failures already sorted into their {@link
 * JarvisFailure} kinds.
 *
 * <pre>{@code
 * JarvisClientOptions.builder()
 *     .addPerCallPolicy(new OperationMetricsPolicy(System::nanoTime, metric ->
 *         registry.timer("jarvis.call", "operation", metric.operationId(),
 *                 "error", metric.errorId().map(Object::toString).orElse("none"))
 *             .record(metric.latency())))
 * }</pre>
 */
public final class OperationMetricsPolicy implements JarvisPolicy {

  private final LongSupplier nanoTime;
  private final Consumer<OperationMetric> sink;

  /**
   * @param nanoTime a monotonic time source in nanoseconds ({@code System::nanoTime}; a test's own
   *     in tests)
   * @param sink receives one metric per call; it runs on the thread that completes the call and
   *     must not block
   */
  public OperationMetricsPolicy(LongSupplier nanoTime, Consumer<OperationMetric> sink) {
    this.nanoTime = Objects.requireNonNull(nanoTime, "nanoTime");
    this.sink = Objects.requireNonNull(sink, "sink");
  }

  @Override
  public String name() {
    return "operation-metrics";
  }

  @Override
  public CompletableFuture<PipelineResponse> send(PipelineRequest request, Next next) {
    long start = nanoTime.getAsLong();
    return next.send(request)
        .whenComplete(
            (answer, thrown) -> {
              Duration latency = Duration.ofNanos(nanoTime.getAsLong() - start);
              String operation = request.operation().operationId();
              sink.accept(
                  answer != null
                      ? success(operation, latency, answer)
                      : failure(operation, latency, thrown));
            });
  }

  private static OperationMetric success(
      String operation, Duration latency, PipelineResponse answer) {
    return new OperationMetric(
        operation,
        latency,
        answer.attempts(),
        Optional.empty(),
        answer.status() >= 400 ? answer.errorId() : Optional.empty(),
        answer.status() >= 400 ? answer.protocolTraceId() : Optional.empty());
  }

  private static OperationMetric failure(String operation, Duration latency, Throwable thrown) {
    Optional<JarvisFailure> failure = JarvisFailure.of(thrown);
    return new OperationMetric(
        operation,
        latency,
        0,
        failure.map(JarvisFailure::kind),
        failure
            .filter(JarvisRefusalException.class::isInstance)
            .map(f -> ((JarvisRefusalException) f).errorId()),
        failure.flatMap(JarvisFailure::protocolTraceId));
  }
}
