package dev.jarvis.store.jdbc;

import java.util.Objects;
import java.util.Optional;

/** Where and how the JDBC store connects. */
public final class JdbcStoreSettings {
  // Options, not a value: start from of(url) and change what differs with the with… methods, so an
  // option added later breaks no caller.
  private final String jdbcUrl;
  private final Optional<String> password;
  private final Optional<String> schema;
  private final int poolSize;
  private final StoreTimeouts timeouts;

  private JdbcStoreSettings(
      String jdbcUrl,
      Optional<String> password,
      Optional<String> schema,
      int poolSize,
      StoreTimeouts timeouts) {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(password, "password");
    Objects.requireNonNull(schema, "schema");
    schema.ifPresent(JdbcStoreSettings::checkSchema);
    if (poolSize < 1) {
      throw new IllegalArgumentException("poolSize must be at least 1");
    }
    Objects.requireNonNull(timeouts, "timeouts");
    this.jdbcUrl = jdbcUrl;
    this.password = password;
    this.schema = schema;
    this.poolSize = poolSize;
    this.timeouts = timeouts;
  }

  /** A {@code jdbc:postgresql:} or {@code jdbc:sqlite:} URL, without a password. */
  public String jdbcUrl() {
    return jdbcUrl;
  }

  /** The database password, from the environment, never from a flag or a log. */
  public Optional<String> password() {
    return password;
  }

  /** The schema to keep the tables in (PostgreSQL), else the connection's default. */
  public Optional<String> schema() {
    return schema;
  }

  /** The most connections the pool opens. */
  public int poolSize() {
    return poolSize;
  }

  /** How long the store waits for a connection, a statement, a lock. */
  public StoreTimeouts timeouts() {
    return timeouts;
  }

  /** Connections unless told otherwise: one per concurrent request the host serves well. */
  public static final int DEFAULT_POOL_SIZE = 16;

  /** The URL with the default pool, no password, the default schema. */
  public static JdbcStoreSettings of(String jdbcUrl) {
    return new JdbcStoreSettings(
        jdbcUrl, Optional.empty(), Optional.empty(), DEFAULT_POOL_SIZE, StoreTimeouts.defaults());
  }

  public JdbcStoreSettings withPassword(Optional<String> password) {
    return new JdbcStoreSettings(jdbcUrl, password, schema, poolSize, timeouts);
  }

  public JdbcStoreSettings withSchema(String schema) {
    return new JdbcStoreSettings(jdbcUrl, password, Optional.of(schema), poolSize, timeouts);
  }

  public JdbcStoreSettings withPoolSize(int poolSize) {
    return new JdbcStoreSettings(jdbcUrl, password, schema, poolSize, timeouts);
  }

  public JdbcStoreSettings withTimeouts(StoreTimeouts timeouts) {
    return new JdbcStoreSettings(jdbcUrl, password, schema, poolSize, timeouts);
  }

  /**
   * A schema name the store can use: a plain identifier (letters, digits, underscores, not starting
   * with a digit, at most 63 characters), which the store quotes in every statement, so it is taken
   * exactly as written.
   *
   * @throws IllegalArgumentException otherwise
   */
  public static String checkSchema(String schema) {
    if (schema == null || !schema.matches("[A-Za-z_][A-Za-z0-9_]{0,62}")) {
      throw new IllegalArgumentException(
          "a store schema must be a plain identifier (letters, digits, _): " + schema);
    }
    return schema;
  }

  /** The URL without its query string, which may carry credentials: safe to log. */
  public String redactedUrl() {
    int query = jdbcUrl.indexOf('?');
    return query < 0 ? jdbcUrl : jdbcUrl.substring(0, query) + "?…";
  }

  @Override
  public String toString() {
    return "JdbcStoreSettings[" + redactedUrl() + ", pool " + poolSize + ", " + timeouts + "]";
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof JdbcStoreSettings o
        && jdbcUrl.equals(o.jdbcUrl)
        && password.equals(o.password)
        && schema.equals(o.schema)
        && poolSize == o.poolSize
        && timeouts.equals(o.timeouts);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(jdbcUrl, password, schema, poolSize, timeouts);
  }
}
