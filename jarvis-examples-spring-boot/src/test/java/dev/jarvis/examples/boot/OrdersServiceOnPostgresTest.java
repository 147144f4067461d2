package dev.jarvis.examples.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.conformance.ConformanceConfig;
import dev.jarvis.conformance.ConformanceReport;
import dev.jarvis.conformance.ConformanceSuite;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.host.HostStores;
import dev.jarvis.samples.SampleRecords;
import dev.jarvis.store.tck.testing.PostgresTestSchema;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The service as configured (application.properties): its orders table migrated by its own Flyway
 * on Boot's DataSource (HikariCP), and Jarvis on the same DataSource in a schema of its own, with
 * its own Flyway history, after the service's migrations. The service's schema is the test's own.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class OrdersServiceOnPostgresTest {

  static PostgresTestSchema schema;

  @LocalServerPort int port;
  @Autowired HostStores stores;
  @Autowired DataSource dataSource;

  @DynamicPropertySource
  static void postgres(DynamicPropertyRegistry properties) throws Exception {
    schema = PostgresTestSchema.create("orders");
    Path dir = Files.createTempDirectory("orders-pg");
    Path policy =
        Files.write(
            dir.resolve("policy.json"),
            JarvisJson.mapper().writeValueAsBytes(SampleRecords.policy()));
    properties.add("spring.datasource.url", () -> schema.url() + "&currentSchema=" + schema.name());
    properties.add("jarvis.host.store.schema", () -> jarvisSchema());
    properties.add("jarvis.host.demo-token", () -> "orders-demo-token");
    properties.add("jarvis.host.credentials-file", () -> "");
    properties.add("jarvis.host.policies", () -> "file:" + policy);
    properties.add("jarvis.host.policy-assignments[0]", () -> "policy-bounded-001=*");
  }

  static String jarvisSchema() {
    return schema.name() + "_jarvis";
  }

  @AfterAll
  static void dropSchemas() throws Exception {
    if (schema != null) {
      try (Connection c = DriverManager.getConnection(schema.url());
          Statement s = c.createStatement()) {
        s.execute("DROP SCHEMA IF EXISTS " + jarvisSchema() + " CASCADE");
      }
      schema.close();
    }
  }

  @Test
  void theServicesTablesAndFlywayHistoryAndJarvisSchemaLiveSideBySide() throws Exception {
    assertEquals(List.of("flyway_schema_history", "orders"), tables(schema.name()));
    assertTrue(tables(jarvisSchema()).contains("jarvis_schema_history"));
    assertTrue(tables(jarvisSchema()).contains("jarvis_work_session"));
  }

  @Test
  void theConformanceSuitePassesWithTheStoreInTheServicesDataSource() {
    ConformanceReport report =
        ConformanceSuite.run(
            ConformanceConfig.live(
                    URI.create("http://127.0.0.1:" + port + "/jarvis"), "orders-demo-token")
                .build());
    assertEquals(List.of(), report.failures());
    assertTrue(stores.ready());
  }

  private List<String> tables(String schemaName) throws Exception {
    List<String> names = new ArrayList<>();
    try (Connection c = dataSource.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = ?"
                    + " ORDER BY table_name")) {
      s.setString(1, schemaName);
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          names.add(r.getString(1));
        }
      }
    }
    return names;
  }
}
