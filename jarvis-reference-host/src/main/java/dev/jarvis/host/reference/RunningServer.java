package dev.jarvis.host.reference;

import java.time.Duration;

/** An HTTP runtime serving the reference host. */
interface RunningServer {

  /** The bound port. */
  int port();

  /**
   * Readiness turns 503 and new requests are answered 503; requests in flight finish for up to
   * {@code grace}; if some are still running then, {@code pastGrace} runs (it aborts their store
   * work, so that they answer and their threads come back); then the server stops.
   */
  void stop(Duration grace, Runnable pastGrace);
}
