package dev.jarvis.host.internal;

import dev.jarvis.host.IdempotencyStore;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/** Idempotency records in memory; an expired record is dropped when it is next looked up. */
public final class InMemoryIdempotencyStore implements IdempotencyStore {

  private final ConcurrentHashMap<Scope, Entry> entries = new ConcurrentHashMap<>();

  @Override
  public Optional<Entry> find(Scope scope, Instant notBefore) {
    Entry entry = entries.get(scope);
    if (entry != null && entry.storedAt().isBefore(notBefore)) {
      entries.remove(scope, entry);
      return Optional.empty();
    }
    return Optional.ofNullable(entry);
  }

  @Override
  public void save(Scope scope, Entry entry) {
    entries.put(scope, entry);
  }
}
