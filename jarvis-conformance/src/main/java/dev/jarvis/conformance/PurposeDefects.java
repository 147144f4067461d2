package dev.jarvis.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisSpec;
import dev.jarvis.core.headers.HeaderLookup;
import dev.jarvis.core.headers.JarvisHeaders;
import dev.jarvis.core.headers.RequestTimestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * What the recorded-exchange judge can tell from one accepted exchange alone about the protocol's
 * purpose: an accepted request that a host keeping it refuses. Rules that need the host's state
 * (membership, approvals at use, Takeover locks) are judged by the live {@link PurposeChecks}.
 */
final class PurposeDefects {

  /** The freshness window the live checks and the reference host use: the request tolerance. */
  static final Duration FRESHNESS = RequestTimestamp.DEFAULT_TOLERANCE;

  /** The spec's genesis event type: only createWorkSession writes one. */
  static final String GENESIS_EVENT =
      JarvisSpec.tree()
          .path("paths")
          .path("/work-sessions")
          .path("post")
          .path("x-jarvis-genesis-state")
          .path("accepted_event_type")
          .asText();

  private PurposeDefects() {}

  /** Why accepting this exchange breaks the protocol's purpose, if it does. */
  static Optional<String> ofAccepted(Exchange exchange) {
    JsonNode body = exchange.requestBody();
    Optional<Instant> sent =
        HeaderLookup.ofLists(exchange.requestHeaders())
            .apply(JarvisHeaders.REQUEST_TIMESTAMP)
            .flatMap(PurposeDefects::instant);
    switch (exchange.operationId()) {
      case "appendJarvisEvent" -> {
        if (GENESIS_EVENT.equals(body.path("type").asText())) {
          return Optional.of(
              "the host accepted a second " + GENESIS_EVENT + " event from a client");
        }
        Optional<Instant> at = instant(body.path("timestamp").asText());
        if (sent.isPresent()
            && at.isPresent()
            && Duration.between(at.get(), sent.get()).abs().compareTo(FRESHNESS) > 0) {
          return Optional.of(
              "the host accepted an event stamped "
                  + body.path("timestamp").asText()
                  + ", outside the freshness window of a request sent at "
                  + sent.get());
        }
      }
      case "createRequest" -> {
        Optional<Instant> expires = instant(body.path("expires_at").asText());
        if (sent.isPresent() && expires.isPresent() && !expires.get().isAfter(sent.get())) {
          return Optional.of("the host accepted a Request already expired when sent");
        }
      }
      case "recordReview" -> {
        JsonNode scope = body.path("approval_scope");
        if (scope.isObject()
            && !scope
                .path("applies_to_work_session_id")
                .asText()
                .equals(body.path("work_session_id").asText())) {
          return Optional.of(
              "the host accepted a Review whose ApprovalScope applies to another WorkSession");
        }
      }
      default -> {}
    }
    return Optional.empty();
  }

  private static Optional<Instant> instant(String text) {
    try {
      return Optional.of(RequestTimestamp.of(text).instant());
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
