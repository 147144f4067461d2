package dev.jarvis.host.notify;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * A store's outbox of notifications (store SPI). The store writes a notification inside the unit of
 * work of the event it is about ({@code Mutation.notification}), so it exists exactly when the
 * event committed; a dispatcher of any host instance then leases it, delivers it and reports back.
 * A lease makes each notification the work of one instance at a time: {@link #claimDue} never hands
 * out a notification whose lease another owner holds, and every report names the owner, so a report
 * by an owner whose lease ran out (and was taken over) changes nothing.
 *
 * <p>Times come from the dispatcher's clock, never the database's.
 */
public interface NotificationOutbox {

  /**
   * Leases to {@code owner}, until {@code now + lease}, at most {@code limit} notifications that
   * are neither dead-lettered nor leased and whose next attempt is due at {@code now}, earliest
   * first.
   */
  List<OutboxEntry> claimDue(Instant now, Duration lease, int limit, String owner);

  /** Removes a delivered notification; false when {@code owner} no longer held its lease. */
  boolean delivered(String id, String owner);

  /** Records a failed attempt and when to try again, releasing the lease. */
  boolean retryAt(String id, String owner, int attempts, Instant next, String lastError);

  /** Gives up on a notification: it stays as a dead letter, never claimed again. */
  boolean deadLetter(String id, String owner, int attempts, Instant at, String lastError);

  /** The dead letters, earliest first, at most {@code limit}. */
  List<DeadLetter> deadLetters(int limit);

  /** How many notifications wait for delivery (leased or not, dead letters excluded). */
  int pending();
}
