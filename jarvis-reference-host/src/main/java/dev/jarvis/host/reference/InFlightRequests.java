package dev.jarvis.host.reference;

import dev.jarvis.host.ProtocolHost;
import dev.jarvis.host.StoredResponse;
import dev.jarvis.host.jaxrs.JarvisHostFeature;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Counts the requests being served, for a graceful shutdown: once draining, a new request is
 * answered 503 with {@code Connection: close}, {@code Retry-After} and a full {@code ProtocolError}
 * ({@link ProtocolHost#shuttingDown}; clients retry 503 on another instance) while those already
 * running finish; {@link #awaitIdle} waits for them. The JDK server's own {@code stop} cannot tell:
 * it waits its whole delay, busy or not.
 */
@PreMatching
@Priority(Priorities.AUTHENTICATION - 100)
final class InFlightRequests implements ContainerRequestFilter, ContainerResponseFilter {

  private static final String COUNTED = InFlightRequests.class.getName();

  private final Supplier<StoredResponse> drainAnswer;
  private int running;
  private boolean draining;

  /**
   * @param drainAnswer the answer to a request that arrives while draining
   */
  InFlightRequests(Supplier<StoredResponse> drainAnswer) {
    this.drainAnswer = drainAnswer;
  }

  @Override
  public void filter(ContainerRequestContext request) {
    synchronized (this) {
      if (!draining) {
        running++;
        request.setProperty(COUNTED, Boolean.TRUE);
        return;
      }
    }
    request.abortWith(
        Response.fromResponse(JarvisHostFeature.toResponse(drainAnswer.get()))
            .header("Connection", "close")
            .build());
  }

  @Override
  public void filter(ContainerRequestContext request, ContainerResponseContext response) {
    if (request.getProperty(COUNTED) != null) {
      request.removeProperty(COUNTED);
      synchronized (this) {
        running--;
        notifyAll();
      }
    }
  }

  /** Whether a request is being served now. */
  synchronized boolean busy() {
    return running > 0;
  }

  /** Whether draining has begun. */
  synchronized boolean draining() {
    return draining;
  }

  /**
   * Refuses new requests from now on and waits until the running ones have answered, or {@code
   * grace} has passed. Answers whether they all did.
   */
  synchronized boolean drain(Duration grace) throws InterruptedException {
    draining = true;
    long deadline = System.nanoTime() + grace.toNanos();
    while (running > 0) {
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        return false;
      }
      wait(Math.max(1, left / 1_000_000));
    }
    return true;
  }
}
