package dev.jarvis.store.jdbc;

import dev.jarvis.core.notification.RequestNotification;
import dev.jarvis.host.notify.DeadLetter;
import dev.jarvis.host.notify.NotificationOutbox;
import dev.jarvis.host.notify.OutboxEntry;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import javax.sql.DataSource;

/**
 * The outbox table of migration V12, {@code jarvis_notification_outbox}: one row per notification,
 * inserted in the unit of work of its event (by {@code jarvis_commit}'s statement on PostgreSQL, a
 * statement of the unit on SQLite), leased by one conditional {@code UPDATE} whose candidate rows
 * PostgreSQL locks {@code FOR UPDATE SKIP LOCKED}, so dispatchers of several instances never claim
 * the same row, nor wait for each other. Times are the dispatcher's clock, in microseconds.
 */
final class JdbcNotificationOutbox implements NotificationOutbox {

  /** The row's outbox columns, written with the event: id, notification, first attempt due. */
  static final String INSERT_COLUMNS = " (id, notification, next_attempt_micros)";

  private final DataSource pool;
  private final Dialect dialect;
  private final String table;
  private final BiFunction<String, SQLException, RuntimeException> failure;

  JdbcNotificationOutbox(
      DataSource pool,
      Dialect dialect,
      String table,
      BiFunction<String, SQLException, RuntimeException> failure) {
    this.pool = pool;
    this.dialect = dialect;
    this.table = table;
    this.failure = failure;
  }

  /** SQLite: the unit's own insert of {@code notification}, on its connection. */
  static void insert(Connection c, String table, RequestNotification notification)
      throws SQLException {
    try (PreparedStatement s =
        c.prepareStatement("INSERT INTO " + table + INSERT_COLUMNS + " VALUES (?, ?, ?)")) {
      s.setString(1, notification.id());
      s.setString(2, text(notification));
      s.setLong(3, micros(notification.occurredAt()));
      s.executeUpdate();
    }
  }

  static String text(RequestNotification notification) {
    return new String(notification.toJson(), StandardCharsets.UTF_8);
  }

  @Override
  public List<OutboxEntry> claimDue(Instant now, Duration lease, int limit, String owner) {
    String sql =
        "UPDATE "
            + table
            + " SET lease_owner = ?, lease_until_micros = ?"
            + " WHERE id IN (SELECT id FROM "
            + table
            + " WHERE dead_at_micros IS NULL AND next_attempt_micros <= ?"
            + " AND lease_until_micros <= ?"
            + " ORDER BY next_attempt_micros, id LIMIT ?"
            + dialect.skipLocked()
            + ") RETURNING notification, attempts, next_attempt_micros, id";
    long at = micros(now);
    try (Connection c = pool.getConnection();
        PreparedStatement s = c.prepareStatement(sql)) {
      s.setString(1, owner);
      s.setLong(2, micros(now.plus(lease)));
      s.setLong(3, at);
      s.setLong(4, at);
      s.setInt(5, limit);
      List<Object[]> rows = new ArrayList<>();
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          rows.add(new Object[] {r.getString(1), r.getInt(2), r.getLong(3), r.getString(4)});
        }
      }
      // RETURNING gives no order: earliest due first, then by id, as the lease chose them.
      rows.sort(
          java.util.Comparator.comparing((Object[] a) -> (Long) a[2])
              .thenComparing(a -> (String) a[3]));
      List<OutboxEntry> claimed = new ArrayList<>(rows.size());
      for (Object[] row : rows) {
        claimed.add(
            new OutboxEntry(RequestNotification.fromJson((String) row[0]), (Integer) row[1]));
      }
      return claimed;
    } catch (SQLException e) {
      throw failure.apply("claiming notifications failed", e);
    }
  }

  @Override
  public boolean delivered(String id, String owner) {
    return update(
        "DELETE FROM " + table + " WHERE id = ? AND lease_owner = ? AND dead_at_micros IS NULL",
        s -> {
          s.setString(1, id);
          s.setString(2, owner);
        });
  }

  @Override
  public boolean retryAt(String id, String owner, int attempts, Instant next, String lastError) {
    return update(
        "UPDATE "
            + table
            + " SET attempts = ?, next_attempt_micros = ?, last_error = ?, lease_owner = NULL,"
            + " lease_until_micros = 0"
            + " WHERE id = ? AND lease_owner = ? AND dead_at_micros IS NULL",
        s -> {
          s.setInt(1, attempts);
          s.setLong(2, micros(next));
          s.setString(3, lastError);
          s.setString(4, id);
          s.setString(5, owner);
        });
  }

  @Override
  public boolean deadLetter(String id, String owner, int attempts, Instant at, String lastError) {
    return update(
        "UPDATE "
            + table
            + " SET attempts = ?, dead_at_micros = ?, last_error = ?, lease_owner = NULL"
            + " WHERE id = ? AND lease_owner = ? AND dead_at_micros IS NULL",
        s -> {
          s.setInt(1, attempts);
          s.setLong(2, micros(at));
          s.setString(3, lastError);
          s.setString(4, id);
          s.setString(5, owner);
        });
  }

  @Override
  public List<DeadLetter> deadLetters(int limit) {
    try (Connection c = pool.getConnection();
        PreparedStatement s =
            c.prepareStatement(
                "SELECT notification, attempts, dead_at_micros, last_error FROM "
                    + table
                    + " WHERE dead_at_micros IS NOT NULL ORDER BY dead_at_micros, id LIMIT ?")) {
      s.setInt(1, limit);
      List<DeadLetter> dead = new ArrayList<>();
      try (ResultSet r = s.executeQuery()) {
        while (r.next()) {
          dead.add(
              new DeadLetter(
                  RequestNotification.fromJson(r.getString(1)),
                  r.getInt(2),
                  Instant.EPOCH.plus(r.getLong(3), ChronoUnit.MICROS),
                  r.getString(4)));
        }
      }
      return dead;
    } catch (SQLException e) {
      throw failure.apply("reading dead letters failed", e);
    }
  }

  @Override
  public int pending() {
    try (Connection c = pool.getConnection();
        PreparedStatement s =
            c.prepareStatement("SELECT count(*) FROM " + table + " WHERE dead_at_micros IS NULL");
        ResultSet r = s.executeQuery()) {
      r.next();
      return r.getInt(1);
    } catch (SQLException e) {
      throw failure.apply("counting notifications failed", e);
    }
  }

  @FunctionalInterface
  private interface Binding {
    void bind(PreparedStatement s) throws SQLException;
  }

  private boolean update(String sql, Binding binding) {
    try (Connection c = pool.getConnection();
        PreparedStatement s = c.prepareStatement(sql)) {
      binding.bind(s);
      return s.executeUpdate() == 1;
    } catch (SQLException e) {
      throw failure.apply("recording a notification's attempt failed", e);
    }
  }

  static long micros(Instant instant) {
    return ChronoUnit.MICROS.between(Instant.EPOCH, instant);
  }
}
