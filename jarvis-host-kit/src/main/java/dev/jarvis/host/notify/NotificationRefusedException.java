package dev.jarvis.host.notify;

/**
 * A delivery that can never succeed as configured (a target the notifier refuses): the dispatcher
 * dead-letters the notification at once instead of retrying it.
 */
public final class NotificationRefusedException extends Exception {

  private static final long serialVersionUID = 1L;

  public NotificationRefusedException(String message) {
    super(message);
  }
}
