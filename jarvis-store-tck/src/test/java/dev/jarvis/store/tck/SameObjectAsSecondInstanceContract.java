package dev.jarvis.store.tck;

import dev.jarvis.host.HostStores;

/**
 * A store that declares {@link StoreTopology#SHARED} but answers itself as its second instance:
 * what the old silent default did. Launched by {@link StoreTopologyTest}, not by the build.
 */
class SameObjectAsSecondInstanceContract extends HostStoresContract {

  @Override
  protected HostStores newStores() {
    return HostStores.inMemory();
  }

  @Override
  protected StoreTopology topology() {
    return StoreTopology.SHARED;
  }

  @Override
  protected HostStores secondInstance(HostStores first) {
    return first;
  }
}
