/**
 * The host kit's durable stores on plain JDBC: {@link dev.jarvis.store.jdbc.JdbcHostStores} on
 * PostgreSQL (several host instances on one database) or SQLite (the embedded default), with a
 * HikariCP pool and Flyway migrations; {@link dev.jarvis.store.jdbc.StoreSpec} reads the {@code
 * --store} and {@code --data-dir} options.
 */
package dev.jarvis.store.jdbc;
