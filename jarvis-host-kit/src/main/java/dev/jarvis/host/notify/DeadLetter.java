package dev.jarvis.host.notify;

import dev.jarvis.core.notification.RequestNotification;
import java.time.Instant;
import java.util.Objects;

/**
 * A notification the dispatcher gave up on, kept for an operator to list ({@link
 * NotificationOutbox#deadLetters}, {@code jarvis-cli dead-letters}).
 *
 * @param notification what was not delivered
 * @param attempts how many attempts were made
 * @param deadAt when it was given up (the dispatcher's clock)
 * @param lastError the last attempt's failure, as the notifier described it (never a secret)
 */
public record DeadLetter(
    RequestNotification notification, int attempts, Instant deadAt, String lastError) {

  public DeadLetter {
    Objects.requireNonNull(notification, "notification");
    Objects.requireNonNull(deadAt, "deadAt");
    Objects.requireNonNull(lastError, "lastError");
  }
}
