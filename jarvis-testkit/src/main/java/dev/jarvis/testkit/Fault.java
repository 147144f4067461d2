package dev.jarvis.testkit;

/**
 * A transport fault the stub host can inject instead of answering: what a client meets when a
 * network, proxy or host process misbehaves. A faulted call never reaches the protocol logic, so it
 * changes no state.
 */
public enum Fault {
  /** The connection is reset (TCP RST) before any response byte. */
  CONNECTION_RESET_BY_PEER,
  /** The connection is closed without any response. */
  EMPTY_RESPONSE,
  /** A {@code 200} whose chunked body is cut off mid-chunk. */
  MALFORMED_RESPONSE_CHUNK,
  /** Garbage bytes, then the connection is closed. */
  RANDOM_DATA_THEN_CLOSE,
  /**
   * HTTP 503 with {@code Retry-After: 1} and no body, as a proxy or an overloaded host sends it.
   */
  SERVICE_UNAVAILABLE
}
