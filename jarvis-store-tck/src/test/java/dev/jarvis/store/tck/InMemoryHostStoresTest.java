package dev.jarvis.store.tck;

import dev.jarvis.host.HostStores;

/**
 * The in-memory store keeps the contract. Its data lives in one process's heap, so it is a
 * single-instance store: the rules about several instances are skipped, not applicable.
 */
class InMemoryHostStoresTest extends HostStoresContract {

  @Override
  protected HostStores newStores() {
    return HostStores.inMemory();
  }

  @Override
  protected StoreTopology topology() {
    return StoreTopology.SINGLE_INSTANCE;
  }
}
