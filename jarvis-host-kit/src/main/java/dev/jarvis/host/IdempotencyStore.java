package dev.jarvis.host;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Idempotency records, read side: the first response to each mutation, keyed by Actor, operation,
 * protocol version and {@code Jarvis-Idempotency-Key}. A record is claimed by the {@link Mutation}
 * it answers ({@link IdempotencyClaim}), in the same commit.
 */
public interface IdempotencyStore {

  /**
   * The key of one record.
   *
   * @param actorId {@code Jarvis-Actor-Id}
   * @param operationId the spec's operationId
   * @param protocolVersion {@code Jarvis-Protocol-Version}
   * @param key {@code Jarvis-Idempotency-Key}
   */
  record Scope(String actorId, String operationId, String protocolVersion, String key) {
    public Scope {
      Objects.requireNonNull(actorId, "actorId");
      Objects.requireNonNull(operationId, "operationId");
      Objects.requireNonNull(protocolVersion, "protocolVersion");
      Objects.requireNonNull(key, "key");
    }
  }

  /**
   * One record.
   *
   * @param fingerprint the {@code RequestFingerprint} hash of the first request
   * @param response the first response, exactly
   * @param storedAt when it was stored; it is kept for the configured retention after that. A store
   *     may keep it to the microsecond only.
   */
  record Entry(String fingerprint, StoredResponse response, Instant storedAt) {
    public Entry {
      Objects.requireNonNull(fingerprint, "fingerprint");
      Objects.requireNonNull(response, "response");
      Objects.requireNonNull(storedAt, "storedAt");
    }
  }

  /** The record, unless absent or stored before {@code notBefore} (expired). */
  Optional<Entry> find(Scope scope, Instant notBefore);

  /**
   * Deletes at most {@code limit} records stored before {@code notBefore}, in one short write that
   * never waits for a live record, and answers how many it deleted; call it again while it answers
   * {@code limit}.
   */
  int deleteExpired(Instant notBefore, int limit);
}
