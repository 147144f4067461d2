package dev.jarvis.store.tck.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A schema of its own for one test, in the PostgreSQL database that {@value #URL_VARIABLE} names
 * (for example {@code jdbc:postgresql://127.0.0.1:5432/test?user=postgres}). The test creates it,
 * and drops only it. Where the variable is unset the test is skipped with that reason, except under
 * CI ({@code CI=true}), where it fails: CI never skips PostgreSQL. Test support, shipped in the
 * TCK's test jar (classifier {@code tests}), not in its API.
 */
public final class PostgresTestSchema implements AutoCloseable {

  /** The environment variable holding the JDBC URL of the test database. */
  public static final String URL_VARIABLE = "JARVIS_TEST_POSTGRES_URL";

  private final String url;
  private final String name;

  private PostgresTestSchema(String url, String name) {
    this.url = url;
    this.name = name;
  }

  /** The test database's URL, or the test is skipped (failed under CI). */
  public static String requireUrl() {
    Optional<String> url =
        Optional.ofNullable(System.getenv(URL_VARIABLE)).filter(u -> !u.isBlank());
    if (url.isEmpty() && "true".equalsIgnoreCase(System.getenv("CI"))) {
      Assertions.fail(URL_VARIABLE + " is not set; CI runs the PostgreSQL tests (see .ci/run)");
    }
    Assumptions.assumeTrue(url.isPresent(), URL_VARIABLE + " is not set: PostgreSQL tests skipped");
    return url.get();
  }

  /** Creates a fresh schema named {@code prefix_<random>}. */
  public static PostgresTestSchema create(String prefix) throws SQLException {
    String url = requireUrl();
    String name =
        (prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12))
            .toLowerCase(Locale.ROOT);
    execute(url, "CREATE SCHEMA " + name);
    return new PostgresTestSchema(url, name);
  }

  /** The test database's JDBC URL. */
  public String url() {
    return url;
  }

  /** The schema's name. */
  public String name() {
    return name;
  }

  /** Drops the schema and everything in it. */
  @Override
  public void close() throws SQLException {
    execute(url, "DROP SCHEMA IF EXISTS " + name + " CASCADE");
  }

  private static void execute(String url, String sql) throws SQLException {
    try (Connection c = DriverManager.getConnection(url);
        Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }
}
