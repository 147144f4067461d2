package dev.jarvis.store.tck;

import dev.jarvis.host.HostStores;

/**
 * The contract run against a {@link BrokenStore}, launched by {@link BrokenStoresTest} (not by the
 * build: its name is no test class's). The defect is the one {@link #defect} holds when the run
 * starts.
 */
class BrokenStoreContract extends HostStoresContract {

  /** The defect of the next run; set by the one test that launches it, one run at a time. */
  static volatile BrokenStore.Defect defect;

  @Override
  protected HostStores newStores() {
    return new BrokenStore(defect);
  }

  @Override
  protected StoreTopology topology() {
    return StoreTopology.SINGLE_INSTANCE;
  }
}
