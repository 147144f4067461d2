package dev.jarvis.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.host.HostStores;
import dev.jarvis.store.tck.HostStoresContract;
import dev.jarvis.store.tck.PostgresTestSchema;
import java.nio.file.Path;
import java.sql.Connection;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;
import org.sqlite.SQLiteDataSource;

/**
 * The store on a {@code DataSource} an application already has (as the Spring Boot starter gives
 * it) keeps the contract, and closing the store leaves the {@code DataSource} to its owner.
 */
class PostgresDataSourceHostStoresTest extends HostStoresContract {

  private PostgresTestSchema schema;
  private PGSimpleDataSource dataSource;

  @Override
  protected HostStores newStores() throws Exception {
    schema = PostgresTestSchema.create("jarvis_ds");
    dataSource = new PGSimpleDataSource();
    dataSource.setUrl(schema.url());
    dataSource.setCurrentSchema(schema.name());
    return JdbcHostStores.on(dataSource);
  }

  @Override
  protected HostStores secondInstance(HostStores first) {
    return JdbcHostStores.on(dataSource);
  }

  @AfterEach
  void dropSchema() throws Exception {
    if (schema != null) {
      schema.close();
    }
  }

  @Test
  void closingTheStoreLeavesTheDataSourceToItsOwner() throws Exception {
    JdbcHostStores.on(dataSource).close();
    try (Connection c = dataSource.getConnection()) {
      assertTrue(c.isValid(2));
    }
  }

  @Test
  void aSqliteDataSourceIsRefusedForTheEmbeddedStoreSpec(@TempDir Path dir) {
    SQLiteDataSource sqlite = new SQLiteDataSource();
    sqlite.setUrl("jdbc:sqlite:" + dir.resolve("x.db"));
    assertThrows(IllegalArgumentException.class, () -> JdbcHostStores.on(sqlite));
  }
}
