/**
 * {@link dev.jarvis.core.records.ProtocolRecords}: the protocol's request records, seeded with what
 * the protocol, the caller's clock and id source and the acting Actor already know, so a caller
 * states only what is theirs to decide.
 */
package dev.jarvis.core.records;
