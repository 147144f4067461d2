package dev.jarvis.spring.boot;

import java.util.function.Supplier;

/**
 * Where the host's {@code trace_id}s come from when a request carries no W3C {@code traceparent}:
 * define one as a bean to use the service's tracer, so that an error a caller reports is found
 * under the trace the service recorded, e.g. {@code () ->
 * tracer.currentSpan().context().traceId()}. Without one the host kit's own supplier ({@code
 * trace:<uuid>}) is used. A request with a valid {@code traceparent} always takes its trace id from
 * it.
 */
@FunctionalInterface
public interface JarvisTraceIds extends Supplier<String> {}
