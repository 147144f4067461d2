package dev.jarvis.host;

import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.host.internal.ResponseFactory;
import dev.jarvis.model.ProtocolErrorId;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The one place a failure of the host itself becomes an answer and a log line: a store that cannot
 * serve now is {@code 503} with {@code Retry-After}, anything else {@code 500}. Both carry a full
 * {@code ProtocolError} of {@code error_id} {@code unknown_state} (the spec has no id for a host or
 * store fault; {@code docs/error-mapping.md} says why this one).
 */
final class HostFailure {

  /** The {@code error_id} of every host failure. */
  static final ProtocolErrorId ERROR_ID = ProtocolErrorId.UNKNOWN_STATE;

  /** The status of a store that cannot serve now. */
  static final int STORE_UNAVAILABLE = 503;

  private static final System.Logger LOG = System.getLogger("dev.jarvis.host");

  static final String NOT_WRITTEN_REASON =
      "The host's store is unavailable for now; nothing of this request was written.";

  static final String NOT_WRITTEN_REMEDIATION =
      "Retry after the Retry-After delay. For a mutation, resend the same body with the same "
          + JarvisHeaders.IDEMPOTENCY_KEY
          + ": that is safe, and applies the request once.";

  static final String UNKNOWN_REASON =
      "The host lost its store while committing this request, so whether it was applied is"
          + " unknown.";

  static final String UNKNOWN_REMEDIATION =
      "Retry after the Retry-After delay, resending the same body with the same "
          + JarvisHeaders.IDEMPOTENCY_KEY
          + ": that is safe and settles the outcome, answering the first response if the request"
          + " was applied and applying it once if it was not. A new key could apply it twice.";

  private HostFailure() {}

  /**
   * The answer to {@code cause}, logged: a store fault at WARNING (class and message, the stack at
   * DEBUG), anything else at ERROR with its stack; each line names the {@code trace_id} sent.
   */
  static StoredResponse answer(
      ResponseFactory responses, Throwable cause, String traceId, Optional<String> operationId) {
    String operation = operationId.map(id -> " of " + id).orElse("");
    Optional<StoreUnavailableException> fault = storeFault(cause);
    if (fault.isEmpty()) {
      LOG.log(
          System.Logger.Level.ERROR,
          "host failure" + operation + ", answered 500 with trace_id " + traceId + ": " + cause,
          cause);
      return responses.error(
          500,
          ProtocolViolation.of(ERROR_ID, "host", "/", "The host failed to process the request."),
          traceId);
    }
    StoreUnavailableException unavailable = fault.get();
    boolean unknown = unavailable.outcome() == StoreUnavailableException.Outcome.UNKNOWN;
    long seconds = wholeSeconds(unavailable.retryAfter());
    // One line an operator can act on; the stack, seldom needed for a fault outside the host,
    // below.
    LOG.log(
        System.Logger.Level.WARNING,
        "store unavailable"
            + operation
            + (unknown ? " during commit (outcome unknown)" : "")
            + ", answered 503 with trace_id "
            + traceId
            + ": "
            + causes(unavailable));
    LOG.log(System.Logger.Level.DEBUG, "store fault of trace_id " + traceId, unavailable);
    StoredResponse error =
        responses.error(
            STORE_UNAVAILABLE,
            new ProtocolViolation(
                ERROR_ID,
                "host",
                "/",
                unknown ? UNKNOWN_REASON : NOT_WRITTEN_REASON,
                unknown ? UNKNOWN_REMEDIATION : NOT_WRITTEN_REMEDIATION),
            traceId);
    return withRetryAfter(error, seconds);
  }

  static final String SHUTTING_DOWN_REASON =
      "The host is shutting down and takes no new requests; nothing of this request was written.";

  static final String SHUTTING_DOWN_REMEDIATION =
      "Retry after the Retry-After delay, on another instance of the host if there is one. For a"
          + " mutation, resend the same body with the same "
          + JarvisHeaders.IDEMPOTENCY_KEY
          + ": that is safe, and applies the request once.";

  /** The answer to a request that arrives while the host drains: 503, Retry-After 1 s. */
  static StoredResponse shuttingDown(ResponseFactory responses, String traceId) {
    StoredResponse error =
        responses.error(
            STORE_UNAVAILABLE,
            new ProtocolViolation(
                ERROR_ID, "host", "/", SHUTTING_DOWN_REASON, SHUTTING_DOWN_REMEDIATION),
            traceId);
    return withRetryAfter(error, 1);
  }

  /** {@code answer} telling the client how many seconds to wait before it retries. */
  private static StoredResponse withRetryAfter(StoredResponse answer, long seconds) {
    Map<String, String> headers = new LinkedHashMap<>(answer.headers());
    headers.put("Retry-After", Long.toString(seconds));
    return new StoredResponse(answer.status(), headers, answer.body());
  }

  /** The store fault in the cause chain, if any (a commit hook may wrap one). */
  static Optional<StoreUnavailableException> storeFault(Throwable cause) {
    for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof StoreUnavailableException fault) {
        return Optional.of(fault);
      }
    }
    return Optional.empty();
  }

  /** Retry-After is delay-seconds: at least 1, so that a client never retries at once. */
  private static long wholeSeconds(Duration wait) {
    long seconds = wait.getSeconds() + (wait.getNano() > 0 ? 1 : 0);
    return Math.max(1, seconds);
  }

  /** Each cause's class and message, outermost first: what the database said, without a stack. */
  private static String causes(Throwable fault) {
    StringBuilder text = new StringBuilder();
    int depth = 0;
    for (Throwable t = fault; t != null && depth < 6; t = t.getCause(), depth++) {
      if (depth > 0) {
        text.append(" <- ");
      }
      text.append(t.getClass().getName()).append(": ").append(t.getMessage());
      for (Throwable suppressed : t.getSuppressed()) {
        text.append(" (suppressed ")
            .append(suppressed.getClass().getName())
            .append(": ")
            .append(suppressed.getMessage())
            .append(')');
      }
    }
    return text.toString();
  }
}
