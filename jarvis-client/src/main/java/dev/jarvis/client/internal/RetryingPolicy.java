package dev.jarvis.client.internal;

import dev.jarvis.client.RetryPolicy;
import dev.jarvis.client.pipeline.CallContext;
import dev.jarvis.client.pipeline.JarvisPolicy;
import dev.jarvis.client.pipeline.PipelineRequest;
import dev.jarvis.client.pipeline.PipelineResponse;
import dev.jarvis.model.ProtocolErrorId;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.function.DoubleSupplier;

/**
 * The first per-attempt link: repeats the attempts below it while that is safe. On a failed
 * connection or a timeout, and on {@link RetryPolicy#RETRYABLE_STATUSES} (honouring {@code
 * Retry-After}), after a back-off; once, with no wait, on {@link
 * ProtocolErrorId#STALE_REQUEST_TIMESTAMP}, since the host refused before acting and only the
 * timestamp changes.
 *
 * <p>A failure another attempt cannot mend ({@link RetryPolicy#permanentFailure}) ends the call at
 * once. When it gives up, the call fails with the {@link
 * dev.jarvis.client.JarvisTransportException} that {@link GiveUp} words and logs at WARN.
 *
 * <p>Every attempt sends the same request; the links below re-stamp the timestamp and ask for the
 * credential again. The wait is the call scope's: a sleep in a blocking call, a timer in an
 * asynchronous one, so no thread is held. The total timeout bounds the whole loop, waits included.
 */
public final class RetryingPolicy implements JarvisPolicy {

  /** The link's name; the pipeline starts each attempt it passes on. */
  public static final String NAME = "retry";

  private final RetryPolicy policy;
  private final Clock clock;
  private final DoubleSupplier random;
  private final Duration totalTimeout;

  public RetryingPolicy(
      RetryPolicy policy, Clock clock, DoubleSupplier random, Duration totalTimeout) {
    this.policy = policy;
    this.clock = clock;
    this.random = random;
    this.totalTimeout = totalTimeout;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public CompletableFuture<PipelineResponse> send(PipelineRequest request, Next next) {
    Instant start = clock.instant();
    return new Attempts(request, next, request.context(), start, start.plus(totalTimeout))
        .attempt(1);
  }

  /** One call's attempts; touched by one attempt at a time, in order. */
  private final class Attempts {
    private final PipelineRequest request;
    private final Next next;
    private final CallContext scope;
    private final Instant start;
    private final Instant deadline;
    private boolean refreshedStaleTimestamp;
    private int failures;

    Attempts(
        PipelineRequest request, Next next, CallContext scope, Instant start, Instant deadline) {
      this.request = request;
      this.next = next;
      this.scope = scope;
      this.start = start;
      this.deadline = deadline;
    }

    CompletableFuture<PipelineResponse> attempt(int attempt) {
      if (scope.isCancelled()) {
        return CompletableFuture.failedFuture(new CancellationException("cancelled"));
      }
      // The pipeline numbers the attempt: this is attempt number `attempt`.
      CompletableFuture<PipelineResponse> sent = next.send(request);
      if (ReadyStages.succeeded(sent)) {
        // A blocking call's answer, here already: decide now, with no stages around it.
        return ReadyStages.thenCompose(sent, answer -> decide(attempt, answer, null));
      }
      return sent.handle((answer, failure) -> decide(attempt, answer, failure))
          .thenCompose(decided -> decided);
    }

    private CompletableFuture<PipelineResponse> decide(
        int attempt, PipelineResponse answer, Throwable failure) {
      Throwable cause = failure == null ? null : FailureCause.of(failure);
      if (cause != null && !(cause instanceof IOException)) {
        return CompletableFuture.failedFuture(cause);
      }
      if (answer != null && !RetryPolicy.isRetryableStatus(answer.status())) {
        if (!refreshedStaleTimestamp && isStaleTimestampRefusal(answer)) {
          refreshedStaleTimestamp = true;
          return attempt(attempt + 1);
        }
        return CompletableFuture.completedFuture(answer);
      }
      Optional<String> permanent =
          cause == null ? Optional.empty() : RetryPolicy.permanentFailure(cause);
      if (permanent.isPresent()) {
        return CompletableFuture.failedFuture(
            GiveUp.unreachable(request, attempt, elapsed(), (IOException) cause, permanent));
      }
      failures++;
      Duration wait = policy.backoff(failures, random.getAsDouble());
      if (answer != null) {
        wait = retryAfter(answer).map(d -> min(d, policy.maxBackoff())).orElse(wait);
      }
      boolean outOfAttempts = failures >= policy.maxAttempts();
      boolean outOfTime = clock.instant().plus(wait).isAfter(deadline);
      if (outOfAttempts || outOfTime) {
        return CompletableFuture.failedFuture(
            answer != null
                ? GiveUp.stillUnavailable(answer, attempt, elapsed())
                : GiveUp.unreachable(
                    request, attempt, elapsed(), (IOException) cause, Optional.empty()));
      }
      GiveUp.retrying(
          request,
          attempt,
          wait,
          answer != null ? "answered " + answer.status() : "failed: " + GiveUp.rootCause(cause));
      return scope.delay(wait).thenCompose(waited -> attempt(attempt + 1));
    }

    private Duration elapsed() {
      return Duration.between(start, clock.instant());
    }
  }

  private static boolean isStaleTimestampRefusal(PipelineResponse answer) {
    return answer.status() >= 400
        && answer.errorId().equals(Optional.of(ProtocolErrorId.STALE_REQUEST_TIMESTAMP));
  }

  /** {@code Retry-After} as delay-seconds or an HTTP-date (RFC 9110 §10.2.3). */
  private Optional<Duration> retryAfter(PipelineResponse answer) {
    Optional<String> value = answer.headers().firstValue("Retry-After").map(String::trim);
    if (value.isEmpty()) {
      return Optional.empty();
    }
    try {
      return Optional.of(Duration.ofSeconds(Math.max(0, Long.parseLong(value.get()))));
    } catch (NumberFormatException notSeconds) {
      try {
        Instant at =
            ZonedDateTime.parse(value.get(), DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
        Duration until = Duration.between(clock.instant(), at);
        return Optional.of(until.isNegative() ? Duration.ZERO : until);
      } catch (DateTimeParseException notADate) {
        return Optional.empty();
      }
    }
  }

  private static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }
}
