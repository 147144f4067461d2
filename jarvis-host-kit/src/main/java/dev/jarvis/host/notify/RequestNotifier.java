package dev.jarvis.host.notify;

import dev.jarvis.core.notification.RequestNotification;

/**
 * Delivers one notification, as the {@link NotificationDispatcher} hands it over: a normal return
 * is a delivery, an exception a failed attempt, retried with back-off until the {@link
 * DeliveryPolicy} dead-letters it ({@link NotificationRefusedException}: dead-lettered at once).
 * Delivery is at least once: the same notification (same {@link RequestNotification#id()}) may come
 * again after a crash or a lost answer. Implementations bound their own time.
 */
@FunctionalInterface
public interface RequestNotifier {

  void deliver(RequestNotification notification) throws Exception;
}
