/**
 * The {@code request-inbox} capability, the SDK's read beyond the spec of the Requests that wait
 * for the calling human, across WorkSessions. Shared by the host kit that serves it and the client
 * that reads it.
 */
package dev.jarvis.core.requestinbox;
