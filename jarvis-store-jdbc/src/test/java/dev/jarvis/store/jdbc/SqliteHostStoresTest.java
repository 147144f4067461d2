package dev.jarvis.store.jdbc;

import dev.jarvis.host.HostStores;
import dev.jarvis.store.tck.HostStoresContract;
import dev.jarvis.store.tck.StoreTopology;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The embedded default keeps the contract, also with two pools on one file. */
class SqliteHostStoresTest extends HostStoresContract {

  @TempDir Path dir;

  @Override
  protected HostStores newStores() {
    return StoreSpec.embedded(dir).open(java.util.Optional.empty());
  }

  /** Several host instances share the database: every rule applies, instances included. */
  @Override
  protected StoreTopology topology() {
    return StoreTopology.SHARED;
  }

  @Override
  protected HostStores secondInstance(HostStores first) {
    return StoreSpec.embedded(dir).open(java.util.Optional.empty());
  }
}
