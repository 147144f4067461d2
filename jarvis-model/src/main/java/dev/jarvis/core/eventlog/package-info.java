/**
 * The {@code event-log} capability, the SDK's read beyond the spec: its operation, its paging rules
 * and its page, shared by the host kit that serves it and the client that reads it.
 */
package dev.jarvis.core.eventlog;
