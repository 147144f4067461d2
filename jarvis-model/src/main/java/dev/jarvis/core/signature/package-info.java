/**
 * Actor-signed events: Ed25519 signatures ({@code actor_signature}) over an event's {@code
 * event_hash}, by key id ({@code signing_key_ref}); the keys a host or an auditor verifies them
 * with ({@link dev.jarvis.core.signature.ActorKeys}); the decisions are in {@code
 * docs/protocol-decisions.md}, "Actor-signed events".
 */
package dev.jarvis.core.signature;
