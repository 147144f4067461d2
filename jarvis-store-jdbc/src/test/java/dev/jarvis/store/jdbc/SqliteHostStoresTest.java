package dev.jarvis.store.jdbc;

import dev.jarvis.host.HostStores;
import dev.jarvis.store.tck.HostStoresContract;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The embedded default keeps the contract, also with two pools on one file. */
class SqliteHostStoresTest extends HostStoresContract {

  @TempDir Path dir;

  @Override
  protected HostStores newStores() {
    return StoreSpec.embedded(dir).open(java.util.Optional.empty());
  }

  @Override
  protected HostStores secondInstance(HostStores first) {
    return StoreSpec.embedded(dir).open(java.util.Optional.empty());
  }
}
