package dev.jarvis.host.notify;

import dev.jarvis.core.notification.RequestNotification;
import java.util.Objects;

/**
 * A notification the outbox leased to one dispatcher.
 *
 * @param notification what to deliver
 * @param attempts the attempts made before this one
 */
public record OutboxEntry(RequestNotification notification, int attempts) {

  public OutboxEntry {
    Objects.requireNonNull(notification, "notification");
  }
}
