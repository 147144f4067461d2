/**
 * Notifications that a Request waits (docs/notifications.md): the {@link
 * dev.jarvis.host.notify.RequestNotifier} SPI, the store's {@link
 * dev.jarvis.host.notify.NotificationOutbox}, the per-instance {@link
 * dev.jarvis.host.notify.NotificationDispatcher} and the built-in {@link
 * dev.jarvis.host.notify.WebhookNotifier}.
 */
package dev.jarvis.host.notify;
