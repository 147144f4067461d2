package dev.jarvis.host.internal;

import dev.jarvis.core.notification.RequestNotification;
import dev.jarvis.host.notify.DeadLetter;
import dev.jarvis.host.notify.NotificationOutbox;
import dev.jarvis.host.notify.OutboxEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The in-memory store's outbox: one map under one monitor. The store adds to it inside its commit,
 * after every condition held, so a notification exists exactly when its event does; one process
 * uses it, so leases only keep two dispatchers of that process apart.
 */
final class InMemoryOutbox implements NotificationOutbox {

  private static final class Row {
    final RequestNotification notification;
    int attempts;
    Instant next;
    String owner;
    Instant leaseUntil = Instant.MIN;
    String lastError = "";
    Instant deadAt;

    Row(RequestNotification notification) {
      this.notification = notification;
      this.next = notification.occurredAt();
    }
  }

  private final Map<String, Row> rows = new LinkedHashMap<>();

  /** Inside the store's commit: adds the notification (a repeat of its id changes nothing). */
  synchronized void add(RequestNotification notification) {
    rows.putIfAbsent(notification.id(), new Row(notification));
  }

  @Override
  public synchronized List<OutboxEntry> claimDue(
      Instant now, Duration lease, int limit, String owner) {
    List<Row> due = new ArrayList<>();
    for (Row row : rows.values()) {
      if (row.deadAt == null && !row.next.isAfter(now) && !row.leaseUntil.isAfter(now)) {
        due.add(row);
      }
    }
    due.sort(Comparator.comparing((Row r) -> r.next).thenComparing(r -> r.notification.id()));
    List<OutboxEntry> claimed = new ArrayList<>();
    for (Row row : due.subList(0, Math.min(limit, due.size()))) {
      row.owner = owner;
      row.leaseUntil = now.plus(lease);
      claimed.add(new OutboxEntry(row.notification, row.attempts));
    }
    return claimed;
  }

  private Row held(String id, String owner) {
    Row row = rows.get(id);
    return row != null && owner.equals(row.owner) && row.deadAt == null ? row : null;
  }

  @Override
  public synchronized boolean delivered(String id, String owner) {
    return held(id, owner) != null && rows.remove(id) != null;
  }

  @Override
  public synchronized boolean retryAt(
      String id, String owner, int attempts, Instant next, String lastError) {
    Row row = held(id, owner);
    if (row == null) {
      return false;
    }
    row.attempts = attempts;
    row.next = next;
    row.lastError = lastError;
    row.owner = null;
    row.leaseUntil = Instant.MIN;
    return true;
  }

  @Override
  public synchronized boolean deadLetter(
      String id, String owner, int attempts, Instant at, String lastError) {
    Row row = held(id, owner);
    if (row == null) {
      return false;
    }
    row.attempts = attempts;
    row.lastError = lastError;
    row.deadAt = at;
    row.owner = null;
    return true;
  }

  @Override
  public synchronized List<DeadLetter> deadLetters(int limit) {
    return rows.values().stream()
        .filter(r -> r.deadAt != null)
        .sorted(Comparator.comparing((Row r) -> r.deadAt))
        .limit(limit)
        .map(r -> new DeadLetter(r.notification, r.attempts, r.deadAt, r.lastError))
        .toList();
  }

  @Override
  public synchronized int pending() {
    return (int) rows.values().stream().filter(r -> r.deadAt == null).count();
  }
}
