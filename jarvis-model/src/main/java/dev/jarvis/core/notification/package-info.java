/**
 * Notifications that a Request waits, as a host sends them and a receiver checks them: the wire
 * type {@link dev.jarvis.core.notification.RequestNotification}, the signature scheme {@link
 * dev.jarvis.core.notification.WebhookSignature} and the receiving side's {@link
 * dev.jarvis.core.notification.WebhookVerifier}. They live in the model, which both the host kit
 * and the client depend on, so a receiver needs no host code (docs/notifications.md).
 */
package dev.jarvis.core.notification;
