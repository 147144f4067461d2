package dev.jarvis.host.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.headers.RequestTimestamp;
import java.time.Instant;
import java.util.Optional;

/** Reads the RFC 3339 timestamps of validated records. */
final class Timestamps {

  private Timestamps() {}

  /**
   * The instant of a timestamp field; empty when absent or not readable as an instant (a leap
   * second passes the schema but has no {@code Instant}).
   */
  static Optional<Instant> of(JsonNode value) {
    if (!value.isTextual()) {
      return Optional.empty();
    }
    try {
      return Optional.of(RequestTimestamp.of(value.asText()).instant());
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }

  /** RFC 3339 text in UTC with seconds. */
  static String format(Instant instant) {
    return RequestTimestamp.format(instant);
  }
}
