package dev.jarvis.client.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.RetryPolicy;
import dev.jarvis.client.Sleeper;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.headers.RequestTimestamp;
import java.io.IOException;
import java.net.http.HttpRequest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.Set;
import java.util.function.DoubleSupplier;

/**
 * Repeats a request while that is safe: on connection failure or timeout, on 429, 502, 503 and 504
 * (honouring {@code Retry-After}), and once on {@code stale_request_timestamp}.
 *
 * <p>Every attempt sends the same method, URI, body, idempotency key and WorkSession cursor; only
 * {@code Jarvis-Request-Timestamp} is fresh, stamped here from the injected clock. The per-attempt
 * timeout is set on each request; the total timeout bounds the whole loop, waits included.
 */
public final class RetryingTransport implements Transport {

  private static final Set<Integer> RETRYABLE_STATUS = Set.of(429, 502, 503, 504);

  private final Transport next;
  private final RetryPolicy policy;
  private final Sleeper sleeper;
  private final Clock clock;
  private final DoubleSupplier random;
  private final Duration attemptTimeout;
  private final Duration totalTimeout;

  public RetryingTransport(
      Transport next,
      RetryPolicy policy,
      Sleeper sleeper,
      Clock clock,
      DoubleSupplier random,
      Duration attemptTimeout,
      Duration totalTimeout) {
    this.next = next;
    this.policy = policy;
    this.sleeper = sleeper;
    this.clock = clock;
    this.random = random;
    this.attemptTimeout = attemptTimeout;
    this.totalTimeout = totalTimeout;
  }

  @Override
  public Exchange send(HttpRequest request, int ignored) throws IOException, InterruptedException {
    Instant deadline = clock.instant().plus(totalTimeout);
    boolean refreshedStaleTimestamp = false;
    int failures = 0;
    for (int attempt = 1; ; attempt++) {
      Exchange answer = null;
      IOException failure = null;
      try {
        answer = next.send(stamped(request), attempt);
      } catch (IOException e) {
        failure = e;
      }
      if (answer != null && !RETRYABLE_STATUS.contains(answer.status())) {
        if (!refreshedStaleTimestamp && isStaleTimestampRefusal(answer)) {
          // Safe by construction: the host refused before acting, and only the timestamp changes.
          refreshedStaleTimestamp = true;
          continue;
        }
        return answer.withAttempts(attempt);
      }
      failures++;
      Duration wait = policy.backoff(failures, random.getAsDouble());
      if (answer != null) {
        wait = retryAfter(answer).map(d -> min(d, policy.maxBackoff())).orElse(wait);
      }
      boolean outOfAttempts = failures >= policy.maxAttempts();
      boolean outOfTime = clock.instant().plus(wait).isAfter(deadline);
      if (outOfAttempts || outOfTime) {
        if (failure != null) {
          throw failure;
        }
        return answer.withAttempts(attempt);
      }
      sleeper.sleep(wait);
    }
  }

  private HttpRequest stamped(HttpRequest request) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(request, (name, value) -> true);
    builder.timeout(attemptTimeout);
    if (request.headers().firstValue(JarvisHeaders.REQUEST_TIMESTAMP).isPresent()) {
      builder.setHeader(JarvisHeaders.REQUEST_TIMESTAMP, RequestTimestamp.format(clock.instant()));
    }
    return builder.build();
  }

  private static boolean isStaleTimestampRefusal(Exchange answer) {
    if (answer.status() != 400 || answer.body().length == 0) {
      return false;
    }
    try {
      JsonNode error = JarvisJson.mapper().readTree(answer.body());
      return "stale_request_timestamp".equals(error.path("error_id").asText());
    } catch (IOException e) {
      return false;
    }
  }

  /** {@code Retry-After} as delay-seconds or an HTTP-date (RFC 9110 §10.2.3). */
  private Optional<Duration> retryAfter(Exchange answer) {
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
