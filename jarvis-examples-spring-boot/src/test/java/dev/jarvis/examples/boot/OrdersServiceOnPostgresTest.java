package dev.jarvis.examples.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.conformance.ConformanceConfig;
import dev.jarvis.conformance.ConformanceReport;
import dev.jarvis.conformance.ConformanceSuite;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.sample.SampleRecords;
import dev.jarvis.host.HostStores;
import dev.jarvis.store.jdbc.JdbcHostStores;
import dev.jarvis.store.tck.PostgresTestSchema;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The same service keeping Jarvis's state in its own PostgreSQL {@code DataSource} ({@code
 * jarvis.host.store.kind=datasource}), in a schema of its own for the test.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class OrdersServiceOnPostgresTest {

  static PostgresTestSchema schema;

  @LocalServerPort int port;
  @Autowired HostStores stores;

  @DynamicPropertySource
  static void postgres(DynamicPropertyRegistry properties) throws Exception {
    schema = PostgresTestSchema.create("jarvis_boot");
    Path dir = Files.createTempDirectory("orders-pg");
    Path policy =
        Files.write(
            dir.resolve("policy.json"),
            JarvisJson.mapper().writeValueAsBytes(SampleRecords.policy()));
    properties.add("jarvis.host.store.kind", () -> "datasource");
    properties.add("jarvis.host.demo-token", () -> "orders-demo-token");
    properties.add("jarvis.host.credentials-file", () -> "");
    properties.add("jarvis.host.policies", policy::toString);
  }

  /** The service's own DataSource (a service would have Boot's pool; any DataSource serves). */
  @TestConfiguration
  static class ServiceDataSource {
    @Bean
    DataSource dataSource() {
      PGSimpleDataSource dataSource = new PGSimpleDataSource();
      dataSource.setUrl(schema.url());
      dataSource.setCurrentSchema(schema.name());
      return dataSource;
    }
  }

  @AfterAll
  static void dropSchema() throws Exception {
    if (schema != null) {
      schema.close();
    }
  }

  @Test
  void theConformanceSuitePassesWithTheStoreInTheServicesDataSource() {
    assertTrue(stores instanceof JdbcHostStores, stores.getClass().getName());
    ConformanceReport report =
        ConformanceSuite.run(
            ConformanceConfig.live(
                    URI.create("http://127.0.0.1:" + port + "/jarvis"), "orders-demo-token")
                .build());
    assertEquals(List.of(), report.failures());
    assertTrue(stores.ready());
  }
}
