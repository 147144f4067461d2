package dev.jarvis.store.jdbc;

import dev.jarvis.host.HostStores;
import dev.jarvis.store.tck.HostStoresContract;
import dev.jarvis.store.tck.StoreTopology;
import dev.jarvis.store.tck.testing.PostgresTestSchema;
import org.junit.jupiter.api.AfterEach;

/**
 * PostgreSQL keeps the contract with two host instances (two pools) on one database: each test in a
 * schema of its own, dropped afterwards.
 */
class PostgresHostStoresTest extends HostStoresContract {

  private PostgresTestSchema schema;

  @Override
  protected HostStores newStores() throws Exception {
    schema = PostgresTestSchema.create("jarvis_tck");
    return open();
  }

  /** Several host instances share the database: every rule applies, instances included. */
  @Override
  protected StoreTopology topology() {
    return StoreTopology.SHARED;
  }

  @Override
  protected HostStores secondInstance(HostStores first) {
    return open();
  }

  private HostStores open() {
    return JdbcHostStores.open(
        JdbcStoreSettings.of(schema.url()).withSchema(schema.name()).withPoolSize(4));
  }

  @AfterEach
  void dropSchema() throws Exception {
    if (schema != null) {
      schema.close();
    }
  }
}
