package dev.jarvis.host;

import dev.jarvis.host.internal.InMemoryIdempotencyStore;
import dev.jarvis.host.internal.InMemoryProtocolStore;
import java.util.Objects;

/**
 * The storage a host runs on.
 *
 * @param sessions WorkSessions and event chains
 * @param records protocol records
 * @param idempotency idempotency records
 */
public record HostStores(
    WorkSessionStore sessions, RecordStore records, IdempotencyStore idempotency) {

  public HostStores {
    Objects.requireNonNull(sessions, "sessions");
    Objects.requireNonNull(records, "records");
    Objects.requireNonNull(idempotency, "idempotency");
  }

  /**
   * Fresh in-memory stores, the embedded default. Sessions and records share one store so that an
   * append writes both atomically.
   */
  public static HostStores inMemory() {
    InMemoryProtocolStore store = new InMemoryProtocolStore();
    return new HostStores(store, store, new InMemoryIdempotencyStore());
  }
}
