package dev.jarvis.store.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Optional;
import javax.sql.DataSource;

/**
 * The store's table names, qualified by its schema when it has one of its own, so that its
 * statements never depend on a connection's {@code search_path} (a {@code DataSource} of the
 * application's keeps the application's).
 */
record Tables(
    Optional<String> schema,
    String workSession,
    String event,
    String citation,
    String record,
    String idempotency,
    String hostWideId,
    String commitFunction,
    String outbox) {

  static Tables in(Optional<String> schema) {
    schema.ifPresent(JdbcStoreSettings::checkSchema);
    return named(schema);
  }

  /**
   * The tables in the schema PostgreSQL migrated them into when the store has none of its own: the
   * connection's {@code current_schema()} at start-up, so that neither the tables nor the commit
   * function are later looked up through a {@code search_path} another role could put a look-alike
   * {@code jarvis_commit} on.
   */
  static Tables inCurrentSchema(DataSource dataSource) {
    try (Connection c = dataSource.getConnection();
        var statement = c.createStatement();
        var rows = statement.executeQuery("SELECT current_schema()")) {
      String schema = rows.next() ? rows.getString(1) : null;
      if (schema == null) {
        throw new JdbcStoreException("the connection's search_path names no existing schema", null);
      }
      return named(Optional.of(schema));
    } catch (SQLException e) {
      throw new JdbcStoreException("cannot read the connection's current schema", e);
    }
  }

  /** The function migration V9 indexes the open Requests' expiry by (PostgreSQL). */
  String requestExpiryFunction() {
    return commitFunction.substring(0, commitFunction.length() - "jarvis_commit".length())
        + "jarvis_request_expiry";
  }

  private static Tables named(Optional<String> schema) {
    String prefix = schema.map(name -> "\"" + name.replace("\"", "\"\"") + "\".").orElse("");
    return new Tables(
        schema,
        prefix + "jarvis_work_session",
        prefix + "jarvis_event",
        prefix + "jarvis_event_citation",
        prefix + "jarvis_protocol_record",
        prefix + "jarvis_idempotency_record",
        prefix + "jarvis_host_wide_id",
        prefix + "jarvis_commit",
        prefix + "jarvis_notification_outbox");
  }
}
