package dev.jarvis.core.chain;

import dev.jarvis.core.error.ProtocolViolation;

/**
 * The first place a chain is broken.
 *
 * @param index position of the offending event in the list that was verified
 * @param violation what is wrong, with its {@code error_id} ({@code invalid_event_hash} or {@code
 *     invalid_previous_event_hash}; {@code unknown_state} for an event holding text the canonical
 *     form cannot carry, which no hash can match) and a JSON Pointer into the list ({@code
 *     /3/previous_hash})
 */
public record ChainBreak(int index, ProtocolViolation violation) {}
