/**
 * {@link dev.jarvis.client.JarvisClient}: a client for any Jarvis host, with its immutable options,
 * calls as values, retries with one idempotency key per logical call, the WorkSession cursor and
 * typed failures. The {@code internal} package is not API.
 */
package dev.jarvis.client;
