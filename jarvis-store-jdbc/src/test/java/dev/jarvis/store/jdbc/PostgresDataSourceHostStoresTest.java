package dev.jarvis.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.host.CommitResult;
import dev.jarvis.host.HostStores;
import dev.jarvis.store.tck.HostStoresContract;
import dev.jarvis.store.tck.StoreTopology;
import dev.jarvis.store.tck.testing.PostgresTestSchema;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
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

  /** The application's pool over it, as a service has one (Spring Boot: HikariCP). */
  private com.zaxxer.hikari.HikariDataSource pooled;

  @Override
  protected HostStores newStores() throws Exception {
    schema = PostgresTestSchema.create("jarvis_ds");
    dataSource = new PGSimpleDataSource();
    dataSource.setUrl(schema.url());
    dataSource.setCurrentSchema(schema.name());
    pooled = pool(dataSource);
    return JdbcHostStores.on(pooled);
  }

  /** A small HikariCP pool over {@code dataSource}. */
  static com.zaxxer.hikari.HikariDataSource pool(PGSimpleDataSource dataSource) {
    com.zaxxer.hikari.HikariConfig config = new com.zaxxer.hikari.HikariConfig();
    config.setDataSource(dataSource);
    config.setMaximumPoolSize(10);
    return new com.zaxxer.hikari.HikariDataSource(config);
  }

  /** Several host instances share the database: every rule applies, instances included. */
  @Override
  protected StoreTopology topology() {
    return StoreTopology.SHARED;
  }

  @Override
  protected HostStores secondInstance(HostStores first) {
    return JdbcHostStores.on(pooled);
  }

  @AfterEach
  void dropSchema() throws Exception {
    if (pooled != null) {
      pooled.close();
    }
    if (schema != null) {
      schema.close();
    }
  }

  @Test
  void closingTheStoreLeavesTheDataSourceToItsOwner() throws Exception {
    JdbcHostStores.on(pooled).close();
    try (Connection c = pooled.getConnection()) {
      assertTrue(c.isValid(2));
    }
  }

  @Test
  void aLookAlikeCommitFunctionPutEarlierOnTheSearchPathIsNeverCalled() throws Exception {
    try (PostgresTestSchema victim = PostgresTestSchema.create("jarvis_victim")) {
      String early = victim.name() + "_early";
      PGSimpleDataSource reached = new PGSimpleDataSource();
      reached.setUrl(victim.url());
      // The early schema does not exist yet: the store migrates into the victim's.
      reached.setCurrentSchema(early + "," + victim.name());
      try (HostStores stores = JdbcHostStores.on(reached);
          Connection c = reached.getConnection();
          Statement s = c.createStatement()) {
        // Another role now puts a function of the same name and arguments first on the path.
        s.execute("CREATE SCHEMA " + early);
        s.execute(
            "DO $$ DECLARE a text; BEGIN SELECT pg_get_function_arguments(p.oid) INTO a"
                + " FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace"
                + " WHERE p.proname = 'jarvis_commit' AND n.nspname = '"
                + victim.name()
                + "'; EXECUTE format('CREATE FUNCTION "
                + early
                + ".jarvis_commit(%s) LANGUAGE plpgsql AS $f$ BEGIN RAISE EXCEPTION ''hijacked'';"
                + " END $f$', a); END $$");
        // Control: an unqualified call on these connections would now reach the look-alike.
        try (var rows =
            s.executeQuery(
                "SELECT n.nspname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace"
                    + " WHERE p.oid = 'jarvis_commit'::regproc")) {
          assertTrue(rows.next());
          assertEquals(early, rows.getString(1));
        }
        assertEquals(
            CommitResult.Outcome.COMMITTED,
            stores.commit(Units.genesis("ws-look-alike")).outcome());
        assertTrue(stores.sessions().find("ws-look-alike").isPresent());
      } finally {
        try (Connection c = reached.getConnection();
            Statement s = c.createStatement()) {
          s.execute("DROP SCHEMA IF EXISTS " + early + " CASCADE");
        }
      }
    }
  }

  @Test
  void aSqliteDataSourceIsRefusedForTheEmbeddedStoreSpec(@TempDir Path dir) {
    SQLiteDataSource sqlite = new SQLiteDataSource();
    sqlite.setUrl("jdbc:sqlite:" + dir.resolve("x.db"));
    assertThrows(IllegalArgumentException.class, () -> JdbcHostStores.on(sqlite));
  }
}
