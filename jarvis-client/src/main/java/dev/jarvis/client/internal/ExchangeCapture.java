package dev.jarvis.client.internal;

import java.util.Optional;

/**
 * Hands the raw exchange of a call from the transport back to the client, around the generated API
 * (which reads only a decoded body). A call runs on one thread from start to end, sync or async, so
 * a thread-local slot is enough; the client clears it before and takes it after each call.
 */
public final class ExchangeCapture {

  private static final ThreadLocal<Exchange> LAST = new ThreadLocal<>();

  private ExchangeCapture() {}

  static void record(Exchange exchange) {
    LAST.set(exchange);
  }

  /** Forgets any exchange recorded on this thread. */
  public static void clear() {
    LAST.remove();
  }

  /** The exchange of the call that just ran on this thread, and forgets it. */
  public static Optional<Exchange> take() {
    Exchange exchange = LAST.get();
    LAST.remove();
    return Optional.ofNullable(exchange);
  }
}
