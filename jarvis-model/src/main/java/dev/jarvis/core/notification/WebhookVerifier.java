package dev.jarvis.core.notification;

import dev.jarvis.core.notification.WebhookVerificationException.Reason;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The receiving side of a Jarvis webhook: checks a delivery's signature (constant time) and its
 * timestamp window against an injected clock <em>before</em> it parses the body, and only then
 * answers the typed {@link RequestNotification}. Build one per secret and share it; it is immutable
 * and thread-safe.
 *
 * <pre>{@code
 * WebhookVerifier verifier = WebhookVerifier.builder(secretBytes).build();
 * RequestNotification n = verifier.verify(headers, body);   // throws WebhookVerificationException
 * }</pre>
 *
 * Delivery is at least once: drop a notification whose {@link RequestNotification#id()} you have
 * seen. The notification carries ids only; fetch the Request with your own credential.
 */
public final class WebhookVerifier {

  /** How far a delivery's timestamp may be from the receiver's clock unless configured. */
  public static final Duration DEFAULT_TOLERANCE = Duration.ofMinutes(5);

  /** The largest body read: a notification is a few hundred bytes. */
  public static final int MAX_BODY_BYTES = 64 * 1024;

  private final WebhookSignature signature;
  private final Clock clock;
  private final Duration tolerance;

  private WebhookVerifier(Builder b) {
    this.signature = WebhookSignature.withSecret(b.secret);
    this.clock = b.clock;
    this.tolerance = b.tolerance;
  }

  /** A builder with the shared secret (the bytes of the host's secret file, trimmed). */
  public static Builder builder(byte[] secret) {
    return new Builder(secret);
  }

  /**
   * Verifies a delivery given its headers (names case-insensitive, as a server hands them over).
   */
  public RequestNotification verify(Map<String, List<String>> headers, byte[] body)
      throws WebhookVerificationException {
    return verify(
        header(headers, WebhookSignature.ID),
        header(headers, WebhookSignature.TIMESTAMP),
        header(headers, WebhookSignature.SIGNATURE),
        body);
  }

  /**
   * Verifies a delivery given the three header values (any may be empty when absent) and the body's
   * exact bytes: headers, then the timestamp window, then the signature, then the body.
   */
  public RequestNotification verify(
      Optional<String> id,
      Optional<String> timestamp,
      Optional<String> signatureHeader,
      byte[] body)
      throws WebhookVerificationException {
    Objects.requireNonNull(body, "body");
    if (id.isEmpty() || id.get().isEmpty() || timestamp.isEmpty() || signatureHeader.isEmpty()) {
      throw new WebhookVerificationException(
          Reason.MISSING_HEADER,
          "a delivery carries "
              + WebhookSignature.ID
              + ", "
              + WebhookSignature.TIMESTAMP
              + " and "
              + WebhookSignature.SIGNATURE);
    }
    long seconds;
    try {
      seconds = Long.parseLong(timestamp.get().trim());
    } catch (NumberFormatException e) {
      throw new WebhookVerificationException(
          Reason.MISSING_HEADER, WebhookSignature.TIMESTAMP + " is not a number of seconds");
    }
    Instant now = clock.instant();
    Instant signedAt;
    try {
      signedAt = Instant.ofEpochSecond(seconds);
    } catch (java.time.DateTimeException e) {
      throw new WebhookVerificationException(
          Reason.TIMESTAMP_OUTSIDE_WINDOW, "the timestamp is out of range");
    }
    if (Duration.between(signedAt, now).abs().compareTo(tolerance) > 0) {
      throw new WebhookVerificationException(
          Reason.TIMESTAMP_OUTSIDE_WINDOW,
          "the delivery was signed at "
              + signedAt
              + ", outside "
              + tolerance
              + " of the receiver's clock");
    }
    if (body.length > MAX_BODY_BYTES
        || !signature.matches(signatureHeader.get(), id.get(), seconds, body)) {
      throw new WebhookVerificationException(
          Reason.BAD_SIGNATURE, "no signature matches this secret, id, timestamp and body");
    }
    RequestNotification notification;
    try {
      notification = RequestNotification.fromJson(body);
    } catch (IllegalArgumentException e) {
      throw new WebhookVerificationException(Reason.MALFORMED_BODY, e.getMessage());
    }
    if (!notification.id().equals(id.get())) {
      throw new WebhookVerificationException(
          Reason.MALFORMED_BODY, "the body's id is not " + WebhookSignature.ID);
    }
    return notification;
  }

  private static Optional<String> header(Map<String, List<String>> headers, String name) {
    String lower = name.toLowerCase(Locale.ROOT);
    for (Map.Entry<String, List<String>> e : headers.entrySet()) {
      if (e.getKey() != null
          && e.getKey().toLowerCase(Locale.ROOT).equals(lower)
          && !e.getValue().isEmpty()) {
        return Optional.ofNullable(e.getValue().get(0));
      }
    }
    return Optional.empty();
  }

  /** Builds a {@link WebhookVerifier}. */
  public static final class Builder {
    private final byte[] secret;
    private Clock clock = Clock.systemUTC();
    private Duration tolerance = DEFAULT_TOLERANCE;

    private Builder(byte[] secret) {
      this.secret = Objects.requireNonNull(secret, "secret").clone();
    }

    /** The receiver's clock (default the system's, UTC). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** How far a timestamp may be from the clock, either way (default 5 minutes). */
    public Builder tolerance(Duration tolerance) {
      if (tolerance.isNegative()) {
        throw new IllegalArgumentException("the tolerance must not be negative");
      }
      this.tolerance = tolerance;
      return this;
    }

    public WebhookVerifier build() {
      return new WebhookVerifier(this);
    }
  }
}
