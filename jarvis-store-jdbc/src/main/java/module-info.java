/**
 * The JDBC host store ({@code JdbcHostStores}) on PostgreSQL or SQLite, its schema kept by Flyway.
 *
 * <p>The JDBC drivers are found by {@code java.sql.DriverManager} as services: on the module path
 * they need only be present, not read by this module, except PostgreSQL's, whose {@code
 * PGConnection} the append feed waits on for notifications ({@code LISTEN}).
 */
// "requires-automatic": Flyway (flyway-core) carries no module name of its own; its name is derived
// from the jar's file name (flyway.core). pgjdbc names itself in its manifest
// (org.postgresql.jdbc).
@SuppressWarnings("requires-automatic")
module dev.jarvis.store.jdbc {
  // The API takes a javax.sql.DataSource and implements the host kit's HostStores.
  requires transitive dev.jarvis.host;
  requires transitive java.sql;
  requires com.zaxxer.hikari;
  requires flyway.core;
  // PGConnection.getNotifications: the append feed's LISTEN connection (PostgresAppendFeed).
  requires org.postgresql.jdbc;

  exports dev.jarvis.store.jdbc;

  // Resources only: the migrations Flyway finds through the class loader (Dialect.migrations).
  opens dev.jarvis.store.jdbc.migration.postgresql;
  opens dev.jarvis.store.jdbc.migration.sqlite;
}
