/**
 * The WorkSession event chain: cursors, the next event's {@code sequence}, {@code previous_hash}
 * and {@code event_hash}, and verification from genesis.
 */
package dev.jarvis.core.chain;
