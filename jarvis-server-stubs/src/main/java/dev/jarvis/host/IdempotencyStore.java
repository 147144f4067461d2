package dev.jarvis.host;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Idempotency records: the first response to each mutation, keyed by Actor, operation, protocol
 * version and {@code Jarvis-Idempotency-Key}.
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
   * @param storedAt when it was stored; it is kept for the configured retention after that
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

  /** Stores the record (replacing an expired one). */
  void save(Scope scope, Entry entry);
}
