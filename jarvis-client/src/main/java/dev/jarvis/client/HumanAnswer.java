package dev.jarvis.client;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.records.ProtocolRecords;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.JarvisEventPayload;
import dev.jarvis.model.Request;
import dev.jarvis.model.Review;
import dev.jarvis.model.ReviewDecision;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A human's answer to an agent's Request, as every human-facing tool of the SDK builds it (the
 * CLI's {@code review}, the review console): Approve or Narrow with an ApprovalScope shaped by
 * {@code maxUses} and {@code expiresIn}, or Deny, with an optional reason (the Review's {@code
 * comments}). {@link #reviewOf} turns it into the Review of one Request; the host still decides
 * whether the acting Actor may record it.
 *
 * @param decision approve, narrow or deny ({@code answer}, {@code correct}, {@code takeover} and
 *     {@code needs_revision} are not answers to a Request here)
 * @param reason why, for the agent and the record; never blank when present
 * @param maxUses approve/narrow: how many times the action may be performed (at least 1)
 * @param expiresIn approve/narrow: how long the approval holds from now (positive)
 */
public record HumanAnswer(
    ReviewDecision decision, Optional<String> reason, long maxUses, Duration expiresIn) {

  /** How long an approval holds unless the human says otherwise. */
  public static final Duration DEFAULT_EXPIRES_IN = Duration.ofHours(1);

  /** How many uses an approval allows unless the human says otherwise. */
  public static final long DEFAULT_MAX_USES = 1;

  /** The longest approval a human-facing tool records: a day, then the agent asks again. */
  public static final Duration MAX_EXPIRES_IN = Duration.ofDays(1);

  /** The most uses one approval allows. */
  public static final long MAX_USES = 1000;

  /**
   * @throws IllegalArgumentException for a decision that is no answer to a Request, a blank reason,
   *     {@code maxUses} outside 1..{@value #MAX_USES} or {@code expiresIn} not positive or longer
   *     than {@link #MAX_EXPIRES_IN}
   */
  public HumanAnswer {
    Objects.requireNonNull(decision, "decision");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(expiresIn, "expiresIn");
    if (decision != ReviewDecision.APPROVE
        && decision != ReviewDecision.NARROW
        && decision != ReviewDecision.DENY) {
      throw new IllegalArgumentException(
          "a Request is answered approve, narrow or deny, not " + decision.getValue());
    }
    if (reason.isPresent() && reason.get().isBlank()) {
      throw new IllegalArgumentException("the reason must not be blank");
    }
    if (maxUses < 1 || maxUses > MAX_USES) {
      throw new IllegalArgumentException(
          "max uses must be from 1 to " + MAX_USES + ", got " + maxUses);
    }
    if (expiresIn.isNegative() || expiresIn.isZero() || expiresIn.compareTo(MAX_EXPIRES_IN) > 0) {
      throw new IllegalArgumentException(
          "the approval must expire after a positive duration of at most "
              + MAX_EXPIRES_IN
              + ", got "
              + expiresIn);
    }
  }

  /** An approval: the Request's exact action, {@code maxUses} times, for {@code expiresIn}. */
  public static HumanAnswer approve(long maxUses, Duration expiresIn, Optional<String> reason) {
    return new HumanAnswer(ReviewDecision.APPROVE, reason, maxUses, expiresIn);
  }

  /** A denial; no ApprovalScope is recorded. */
  public static HumanAnswer deny(Optional<String> reason) {
    return new HumanAnswer(ReviewDecision.DENY, reason, DEFAULT_MAX_USES, DEFAULT_EXPIRES_IN);
  }

  /**
   * The Review of {@code request} by {@code client}'s acting Actor for the Request's target human
   * Worker. For approve and narrow it carries the narrowest ApprovalScope ({@link
   * ProtocolRecords#approvalScope}) with this answer's uses and expiry, bound to the Request as its
   * own event recorded it ({@code request_revision}, {@code request_event_hash}): that event is
   * found in the WorkSession's log ({@code event-log} capability), since the chain may have moved
   * on since.
   *
   * @throws IllegalStateException if the log holds no {@code request.created} event for the Request
   * @throws JarvisUnsupportedCapabilityException if an approval is asked of a host without {@code
   *     event-log}
   */
  public Review reviewOf(JarvisClient client, Request request) {
    ProtocolRecords records = client.records();
    Review review = records.review(request, request.getTargetHumanWorkerId(), decision);
    reason.ifPresent(review::comments);
    if (decision == ReviewDecision.DENY) {
      return review;
    }
    ChainCursor requestAt =
        requestCreated(client, request)
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "the event log of WorkSession "
                            + request.getWorkSessionId()
                            + " has no request.created event for Request "
                            + request.getId()
                            + ": cannot bind an ApprovalScope to it"));
    return review.approvalScope(
        records.approvalScope(request, review.getId(), requestAt, expiresIn).maxUses(maxUses));
  }

  /**
   * Where the chain stood right after the event that recorded the Request ({@code request.created}
   * about {@code request:<id>}): its sequence is the revision then, its hash the last event hash.
   */
  static Optional<ChainCursor> requestCreated(JarvisClient client, Request request) {
    try (Stream<JsonNode> events = client.events(request.getWorkSessionId())) {
      return events
          .filter(event -> recordsTheRequest(event, request.getId()))
          .findFirst()
          .map(
              event ->
                  new ChainCursor(
                      event.path(JarvisEvent.JSON_PROPERTY_SEQUENCE).asLong(),
                      event.path(JarvisEvent.JSON_PROPERTY_EVENT_HASH).asText()));
    }
  }

  private static boolean recordsTheRequest(JsonNode event, String requestId) {
    JsonNode payload = event.path(JarvisEvent.JSON_PROPERTY_PAYLOAD);
    return "request.created".equals(event.path(JarvisEvent.JSON_PROPERTY_TYPE).asText())
        && "request".equals(payload.path(JarvisEventPayload.JSON_PROPERTY_OBJECT_TYPE).asText())
        && requestId.equals(payload.path(JarvisEventPayload.JSON_PROPERTY_OBJECT_ID).asText());
  }
}
