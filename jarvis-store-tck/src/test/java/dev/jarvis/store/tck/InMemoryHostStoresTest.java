package dev.jarvis.store.tck;

import dev.jarvis.host.HostStores;

/** The in-memory store keeps the contract; two host instances share it as one object. */
class InMemoryHostStoresTest extends HostStoresContract {

  @Override
  protected HostStores newStores() {
    return HostStores.inMemory();
  }
}
