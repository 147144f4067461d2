/**
 * The protocol's hashes: an event's {@code event_hash}, an action's {@code normalized_action_hash}
 * and the idempotency fingerprint of a request.
 */
package dev.jarvis.core.hash;
