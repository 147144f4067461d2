package dev.jarvis.store.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.util.DriverDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import java.util.Properties;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;

/**
 * A store's start: its connections (a pool of its own, or an application's {@code DataSource}), its
 * schema migrated to this version by Flyway, its tables' qualified names, how its statements are
 * bound, and where its append feed listens (PostgreSQL).
 *
 * @param pool where units and reads take their connections
 * @param tables the tables, qualified by the schema the migrations ran in
 * @param bounds the statement and lock bounds units and reads set themselves (on an application's
 *     {@code DataSource})
 * @param closer closes the pool this start opened; a {@code DataSource} it was given belongs to
 *     whoever gave it
 * @param feedSource PostgreSQL: where the append feed's LISTEN connection comes from
 * @param timeouts the waits the feed derives its own from
 */
record StoreBootstrap(
    DataSource pool,
    Dialect dialect,
    Tables tables,
    StatementBounds bounds,
    Runnable closer,
    Optional<SharedAppendFeed.Source> feedSource,
    StoreTimeouts timeouts) {

  /** See {@link JdbcHostStores#on(DataSource, String, StoreTimeouts)}. */
  static StoreBootstrap on(DataSource dataSource, Optional<String> schema, StoreTimeouts timeouts) {
    // Refused before any statement: the name is written into every statement the store sends.
    schema.ifPresent(JdbcStoreSettings::checkSchema);
    String url;
    try (Connection c = dataSource.getConnection()) {
      url = c.getMetaData().getURL();
    } catch (SQLException e) {
      throw new JdbcStoreException("cannot connect to the DataSource", e);
    }
    Dialect dialect =
        Dialect.of(url == null ? "" : url)
            .filter(d -> d == Dialect.POSTGRESQL)
            .orElseThrow(() -> new IllegalArgumentException("a DataSource store needs PostgreSQL"));
    try {
      migrate(dataSource, dialect, schema);
    } catch (RuntimeException e) {
      throw new JdbcStoreException(
          "cannot migrate the DataSource's database"
              + schema.map(name -> " (schema " + name + ")").orElse(""),
          e);
    }
    Tables tables = schema.isPresent() ? Tables.in(schema) : Tables.inCurrentSchema(dataSource);
    // The feed borrows its connection from the application's DataSource for as long as it listens,
    // and evicts it afterwards: a connection that LISTENs never goes back to someone else's pool.
    var feed =
        new SharedAppendFeed.Source(
            dataSource::getConnection,
            connection -> PooledConnections.evict(dataSource, connection));
    return new StoreBootstrap(
        dataSource,
        dialect,
        tables,
        StatementBounds.each(timeouts),
        () -> {},
        Optional.of(feed),
        timeouts);
  }

  /**
   * See {@link JdbcHostStores#open(JdbcStoreSettings)}; {@code drivers}, when present, applied to
   * the driver's {@code DataSource} the pool takes its connections from.
   */
  static StoreBootstrap open(
      JdbcStoreSettings settings, Optional<UnaryOperator<DataSource>> drivers) {
    Dialect dialect =
        Dialect.of(settings.jdbcUrl())
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "not a jdbc:postgresql: or jdbc:sqlite: URL: " + settings.redactedUrl()));
    HikariConfig config = new HikariConfig();
    config.setPoolName("jarvis-store");
    settings.schema().ifPresent(config::setSchema);
    config.setMaximumPoolSize(settings.poolSize());
    dialect.configure(config, settings.timeouts());
    if (drivers.isPresent()) {
      // What HikariCP builds from the URL and properties itself, given to the wrapper first.
      config.setDataSource(
          drivers
              .get()
              .apply(
                  new DriverDataSource(
                      settings.jdbcUrl(),
                      null,
                      config.getDataSourceProperties(),
                      null,
                      settings.password().orElse(null))));
    } else {
      config.setJdbcUrl(settings.jdbcUrl());
      settings.password().ifPresent(config::setPassword);
    }
    HikariDataSource pool;
    try {
      pool = new HikariDataSource(config);
    } catch (RuntimeException e) {
      throw new JdbcStoreException("cannot connect to " + settings.redactedUrl(), e);
    }
    try {
      // PostgreSQL migrates on connections of its own, without the pool's statement and lock
      // timeouts: a migration may rightly run longer than a request, or wait for the table locks
      // of instances still serving.
      DataSource migrating =
          dialect == Dialect.POSTGRESQL
              ? new DriverDataSource(
                  settings.jdbcUrl(),
                  null,
                  new Properties(),
                  null,
                  settings.password().orElse(null))
              : pool;
      migrate(migrating, dialect, settings.schema());
    } catch (RuntimeException e) {
      pool.close();
      throw new JdbcStoreException("cannot migrate " + settings.redactedUrl(), e);
    }
    Tables tables;
    try {
      tables =
          settings.schema().isPresent() || dialect != Dialect.POSTGRESQL
              ? Tables.in(settings.schema())
              : Tables.inCurrentSchema(pool);
    } catch (RuntimeException e) {
      pool.close();
      throw e;
    }
    Optional<SharedAppendFeed.Source> feed =
        dialect == Dialect.POSTGRESQL
            ? Optional.of(listening(settings, PostgresAppendFeed.Timing.from(settings.timeouts())))
            : Optional.empty();
    return new StoreBootstrap(
        pool, dialect, tables, StatementBounds.none(), pool::close, feed, settings.timeouts());
  }

  /**
   * Migrates to this version (several instances starting at once serialise on Flyway's lock), with
   * Jarvis's own history table, in {@code schema} when there is one.
   */
  private static void migrate(DataSource dataSource, Dialect dialect, Optional<String> schema) {
    var flyway =
        Flyway.configure()
            .dataSource(dataSource)
            .locations(dialect.migrations())
            .table(JdbcHostStores.HISTORY_TABLE);
    schema.ifPresent(flyway::schemas);
    flyway.load().migrate();
  }

  /**
   * The append feed's connections on the store's own pool settings: the same URL and password as
   * the pool, opened by the driver on their own (never one of the pool's), bound to answer within
   * the feed's answer wait, and named in {@code pg_stat_activity}.
   */
  private static SharedAppendFeed.Source listening(
      JdbcStoreSettings settings, PostgresAppendFeed.Timing timing) {
    Properties properties = new Properties();
    String seconds = Long.toString(Math.max(1, timing.answer().toSeconds()));
    properties.setProperty("connectTimeout", seconds);
    properties.setProperty("loginTimeout", seconds);
    properties.setProperty("tcpKeepAlive", "true");
    properties.setProperty("ApplicationName", "jarvis-append-listener");
    DataSource driver =
        new DriverDataSource(
            settings.jdbcUrl(), null, properties, null, settings.password().orElse(null));
    return new SharedAppendFeed.Source(
        driver::getConnection,
        connection -> {
          PostgresAppendFeed.abort(connection);
          try {
            connection.close();
          } catch (SQLException | RuntimeException e) {
            // Already gone.
          }
        });
  }
}
