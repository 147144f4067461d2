package dev.jarvis.client.internal;

/**
 * The protocol headers of one call, as the generated API takes them. {@code idempotencyKey}, {@code
 * requestTimestamp}, {@code expectedRevision} and {@code previousEventHash} are null where the
 * operation class has no such header; {@code requestTimestamp} is re-stamped on every attempt.
 */
public record CallHeaders(
    String protocolVersion,
    String actorId,
    String idempotencyKey,
    String requestTimestamp,
    Integer expectedRevision,
    String previousEventHash,
    String requiredCapabilities,
    String extensions) {}
