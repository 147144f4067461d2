package dev.jarvis.store.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.jarvis.host.HostStores;
import dev.jarvis.store.tck.HostStoresContract;
import dev.jarvis.store.tck.StoreTopology;
import dev.jarvis.store.tck.testing.PostgresTestSchema;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The store on the {@code DataSource} of a service whose database already holds its own tables and
 * its own Flyway history (as a Spring Boot service's does): Jarvis migrates into a schema of its
 * own, with its own history table there, keeps the contract, and the service's tables, history and
 * {@code search_path} are as they were, so the service's Flyway still validates and migrates.
 */
class PostgresBesideAnotherApplicationTest extends HostStoresContract {

  private PostgresTestSchema service;
  private String jarvisSchema;
  private PGSimpleDataSource dataSource;

  /** The application's pool over it, as a service has one (Spring Boot: HikariCP). */
  private com.zaxxer.hikari.HikariDataSource pooled;

  @Override
  protected HostStores newStores() throws Exception {
    service = PostgresTestSchema.create("service");
    dataSource = new PGSimpleDataSource();
    dataSource.setUrl(service.url());
    dataSource.setCurrentSchema(service.name());
    serviceFlyway().migrate();
    jarvisSchema = service.name() + "_jarvis";
    pooled = PostgresDataSourceHostStoresTest.pool(dataSource);
    return JdbcHostStores.on(pooled, jarvisSchema);
  }

  /** Several host instances share the database: every rule applies, instances included. */
  @Override
  protected StoreTopology topology() {
    return StoreTopology.SHARED;
  }

  @Override
  protected HostStores secondInstance(HostStores first) {
    return JdbcHostStores.on(pooled, jarvisSchema);
  }

  private Flyway serviceFlyway() {
    return Flyway.configure()
        .dataSource(dataSource)
        .locations("classpath:another-application")
        .load();
  }

  @AfterEach
  void dropSchemas() throws Exception {
    if (pooled != null) {
      pooled.close();
    }
    if (service != null) {
      try (Connection c = dataSource.getConnection();
          Statement s = c.createStatement()) {
        s.execute("DROP SCHEMA IF EXISTS " + jarvisSchema + " CASCADE");
      }
      service.close();
    }
  }

  @Test
  void jarvisTablesAndHistoryLiveInItsOwnSchemaAndTheServicesAreUntouched() throws Exception {
    assertEquals(
        List.of(
            "jarvis_event",
            "jarvis_event_citation",
            "jarvis_host_wide_id",
            "jarvis_idempotency_record",
            "jarvis_notification_outbox",
            "jarvis_protocol_record",
            "jarvis_schema_history",
            "jarvis_work_session"),
        tables(jarvisSchema));
    assertEquals(
        List.of("flyway_schema_history", "orders", "work_session"), tables(service.name()));
    assertEquals(1, count(service.name() + ".flyway_schema_history"));
    assertEquals(1, count(service.name() + ".orders"));
    // The service's own Flyway, run again as at its next start-up, finds its history as it left it.
    serviceFlyway().validate();
    assertEquals(0, serviceFlyway().migrate().migrationsExecuted);
  }

  @Test
  void theServicesConnectionsKeepTheirSearchPathAfterJarvisMigratedAndServed() throws Exception {
    try (JdbcHostStores stores = JdbcHostStores.on(dataSource, jarvisSchema)) {
      stores.find("ws-none");
    }
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT current_schema()")) {
      r.next();
      assertEquals(service.name(), r.getString(1));
    }
  }

  @Test
  void aSchemaThatIsNotAPlainIdentifierIsRefusedBeforeAnyStatement() throws Exception {
    assertThrows(
        IllegalArgumentException.class,
        () -> JdbcHostStores.on(dataSource, "jarvis\"; DROP TABLE orders; --"));
    assertEquals(1, count(service.name() + ".orders"));
  }

  private List<String> tables(String schema) throws SQLException {
    List<String> names = new ArrayList<>();
    try (Connection c = dataSource.getConnection();
        var s =
            c.prepareStatement(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = ?"
                    + " ORDER BY table_name")) {
      s.setString(1, schema);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          names.add(r.getString(1));
        }
      }
    }
    return names;
  }

  private long count(String table) throws SQLException {
    try (Connection c = dataSource.getConnection();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT count(*) FROM " + table)) {
      r.next();
      return r.getLong(1);
    }
  }
}
