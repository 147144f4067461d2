package dev.jarvis.client;

import dev.jarvis.client.internal.FailureCause;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Every way a client call can fail, as one sealed family: {@link JarvisTransportException} (could
 * not reach or read the host), {@link JarvisRefusalException} (the host, or the client before
 * sending, refused; {@link JarvisStaleSessionException} when the WorkSession moved on), {@link
 * JarvisInvalidResponseException} (the host answered off-spec).
 *
 * <p>It is an interface, not a common superclass, because a refusal must stay a {@link
 * dev.jarvis.core.error.JarvisProtocolException}, the model's type that host code throws and
 * catches too. To handle all of them in one place, catch the three and switch on {@link #kind()}:
 *
 * <pre>{@code
 * try {
 *   client.recordPolicyDecision(ws, decision);
 * } catch (JarvisTransportException | JarvisRefusalException | JarvisInvalidResponseException e) {
 *   switch (e.kind()) { // e is a JarvisFailure
 *     case TRANSPORT -> retryLater();
 *     case STALE_SESSION -> decideAgain(((JarvisStaleSessionException) e).current());
 *     case REFUSED -> log.warn("{} [{}]", e.getMessage(), e.protocolTraceId().orElse("-"));
 *     case INVALID_RESPONSE -> alertHostOwner(e);
 *   }
 * }
 * }</pre>
 *
 * An asynchronous call's future fails with the same exception; {@link #of(Throwable)} finds it.
 */
public sealed interface JarvisFailure
    permits JarvisTransportException, JarvisRefusalException, JarvisInvalidResponseException {

  /** The four kinds, for a {@code switch} (the permitted types are the same four, finer). */
  enum Kind {
    /** {@link JarvisTransportException}: nothing known about whether the host acted. */
    TRANSPORT,
    /** {@link JarvisRefusalException}: the host or the client refused; nothing happened. */
    REFUSED,
    /** {@link JarvisStaleSessionException}: the WorkSession moved on; re-read, not replayed. */
    STALE_SESSION,
    /** {@link JarvisInvalidResponseException}: the host answered off-spec. */
    INVALID_RESPONSE
  }

  Kind kind();

  /** The {@code trace_id} of the ProtocolError behind this failure, where the host sent one. */
  Optional<String> protocolTraceId();

  /** This failure as the exception it is, to rethrow. */
  default RuntimeException asException() {
    return (RuntimeException) this;
  }

  /**
   * The client failure behind {@code thrown}, looking through the {@link CompletionException} or
   * {@link ExecutionException} an asynchronous call wraps it in.
   */
  static Optional<JarvisFailure> of(Throwable thrown) {
    return FailureCause.of(thrown) instanceof JarvisFailure failure
        ? Optional.of(failure)
        : Optional.empty();
  }
}
