package dev.jarvis.testkit;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The answers the stub host gave to accepted mutations, by idempotency key, with the fingerprint of
 * the request that earned them. Refusals are not kept: a client that fixes a refused request may
 * resend it under the same key.
 */
final class IdempotencyRecords {

  /** What a key was first used for. */
  record Entry(String fingerprint, StubResponse response) {}

  private final Map<String, Entry> byKey = new HashMap<>();

  Optional<Entry> find(String key) {
    return Optional.ofNullable(byKey.get(key));
  }

  void remember(String key, String fingerprint, StubResponse response) {
    byKey.put(key, new Entry(fingerprint, response));
  }

  void clear() {
    byKey.clear();
  }
}
