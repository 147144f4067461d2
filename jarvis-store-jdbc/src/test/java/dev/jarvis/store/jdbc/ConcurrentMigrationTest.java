package dev.jarvis.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.store.tck.testing.PostgresTestSchema;
import dev.jarvis.store.tck.testing.Together;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** Host instances starting at once on an empty PostgreSQL schema migrate it once, all of them. */
class ConcurrentMigrationTest {

  private static final int INSTANCES = 4;

  @Test
  void instancesStartingTogetherOnAnEmptySchemaMigrateItOnceAndAllStart() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(INSTANCES);
    try (PostgresTestSchema schema = PostgresTestSchema.create("jarvis_migrate")) {
      List<Callable<JdbcHostStores>> starts = new ArrayList<>();
      for (int i = 0; i < INSTANCES; i++) {
        starts.add(
            () ->
                JdbcHostStores.open(
                    JdbcStoreSettings.of(schema.url()).withSchema(schema.name()).withPoolSize(2)));
      }
      List<JdbcHostStores> started = Together.run(pool, starts);
      for (JdbcHostStores stores : started) {
        assertTrue(stores.ready());
        stores.close();
      }
      try (Connection c = DriverManager.getConnection(schema.url());
          Statement s = c.createStatement();
          ResultSet r =
              s.executeQuery(
                  "SELECT count(*) FROM "
                      + schema.name()
                      + ".jarvis_schema_history WHERE success AND version = '1'")) {
        r.next();
        assertEquals(1, r.getInt(1));
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
