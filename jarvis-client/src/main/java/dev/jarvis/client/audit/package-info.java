/**
 * Audits a WorkSession's event log from outside its host: {@link
 * dev.jarvis.client.audit.EventLogAudit} judges a log an event at a time, {@link
 * dev.jarvis.client.audit.AuditReport} says what it found. {@code JarvisClient.audit} reads the log
 * from a host with the {@code event-log} capability; {@code jarvis-cli audit} reads it from a host
 * or from files.
 */
package dev.jarvis.client.audit;
