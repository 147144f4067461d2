/**
 * The typed exchange: one protocol request as the host's guard read it, once. {@link
 * dev.jarvis.core.exchange.ProtocolExchange} carries the operation, the acting Actor, the path ids,
 * the expected cursor, the idempotency key, the request timestamp and the body ({@link
 * dev.jarvis.core.exchange.RequestBody}: the bytes as they travelled and the one tree read from
 * them by {@link dev.jarvis.core.exchange.BodyReader}). Rules, the idempotency record and the store
 * take what they need from it instead of reading headers and bodies again.
 */
package dev.jarvis.core.exchange;
