package dev.jarvis.host;

/**
 * A store implemented as one object: its three read views are itself. The usual shape of a backend,
 * since {@link #commit} must write across all three atomically anyway.
 */
public interface StoreBackend extends HostStores, WorkSessionStore, RecordStore, IdempotencyStore {

  @Override
  default WorkSessionStore sessions() {
    return this;
  }

  @Override
  default RecordStore records() {
    return this;
  }

  @Override
  default IdempotencyStore idempotency() {
    return this;
  }
}
