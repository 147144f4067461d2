package dev.jarvis.host.reference;

import java.time.Duration;

/** An HTTP runtime serving the reference host. */
interface RunningServer {

  /** The bound port. */
  int port();

  /**
   * Readiness turns 503 and new requests are answered 503; requests in flight finish for up to
   * {@code grace}; then the server stops.
   */
  void stop(Duration grace);
}
