package dev.jarvis.client.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.client.JarvisInvalidResponseException;
import dev.jarvis.client.RequestResolution;
import dev.jarvis.model.ApprovalScope;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.JarvisEventPayload;
import dev.jarvis.model.Request;
import dev.jarvis.model.RequestStatus;
import dev.jarvis.model.Review;
import dev.jarvis.model.ReviewDecision;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What must hold before an await believes a closed Request: the verified chain records the
 * resolution (an event about the resolving Review or Takeover, or the event the Request names as
 * {@code closed_by_event_ref}), and the resolving Review is of this Request, decides what the
 * Request says, and binds its ApprovalScope to it. Otherwise the host answered something a correct
 * host never does, and the await fails closed with {@link JarvisInvalidResponseException}. Keeps
 * the ids of the events seen and the records they were about, one await's worth; not thread-safe
 * (one step of an await runs at a time).
 */
final class ResolutionEvidence {

  /** The Request status each Review decision leaves (the host kit's {@code ReviewRule}). */
  private static final Map<ReviewDecision, RequestStatus> RESOLVES_AS =
      Map.of(
          ReviewDecision.APPROVE, RequestStatus.APPROVED,
          ReviewDecision.NARROW, RequestStatus.NARROWED,
          ReviewDecision.DENY, RequestStatus.DENIED,
          ReviewDecision.ANSWER, RequestStatus.ANSWERED,
          ReviewDecision.CORRECT, RequestStatus.ANSWERED,
          ReviewDecision.NEEDS_REVISION, RequestStatus.NEEDS_REVISION,
          ReviewDecision.TAKEOVER, RequestStatus.TAKEOVER);

  private final String workSessionId;
  private final String requestId;
  private final Set<String> eventIds = new HashSet<>();
  private final Set<String> eventObjects = new HashSet<>();

  ResolutionEvidence(String workSessionId, String requestId) {
    this.workSessionId = workSessionId;
    this.requestId = requestId;
  }

  /** The next verified events of the chain. */
  void note(List<JsonNode> events) {
    for (JsonNode event : events) {
      eventIds.add(event.path(JarvisEvent.JSON_PROPERTY_ID).asText());
      JsonNode payload = event.path(JarvisEvent.JSON_PROPERTY_PAYLOAD);
      eventObjects.add(
          payload.path(JarvisEventPayload.JSON_PROPERTY_OBJECT_TYPE).asText()
              + ":"
              + payload.path(JarvisEventPayload.JSON_PROPERTY_OBJECT_ID).asText());
    }
  }

  /**
   * Whether the chain seen so far records the resolution: the event about the resolving Review (or
   * Takeover), or the event the Request names as closing it ({@code closed_by_event_ref}).
   */
  boolean recorded(Request request) {
    if (request.getResolvedByReviewId() != null) {
      return eventObjects.contains("review:" + request.getResolvedByReviewId());
    }
    if (request.getResolvedByTakeoverId() != null) {
      return eventObjects.contains("takeover:" + request.getResolvedByTakeoverId());
    }
    return request.getClosedByEventRef() != null
        && eventIds.contains(request.getClosedByEventRef());
  }

  /** The event {@link #recorded} looks for, in words. */
  static String recordingEvent(Request request) {
    if (request.getResolvedByReviewId() != null) {
      return "an event about review " + request.getResolvedByReviewId();
    }
    if (request.getResolvedByTakeoverId() != null) {
      return "an event about takeover " + request.getResolvedByTakeoverId();
    }
    return "event " + request.getClosedByEventRef();
  }

  /** The resolving Review must be of this Request, decide what the Request says, bind to it. */
  void checkReview(Request request, Review review) {
    require(
        review.getId().equals(request.getResolvedByReviewId())
            && workSessionId.equals(review.getWorkSessionId()),
        "/id",
        "asked for Review '" + request.getResolvedByReviewId() + "', got '" + review.getId() + "'");
    require(
        ("request:" + requestId).equals(review.getTargetRef()),
        "/target_ref",
        "the resolving Review targets '" + review.getTargetRef() + "', not request:" + requestId);
    require(
        RESOLVES_AS.get(review.getDecision()) == request.getStatus(),
        "/decision",
        "a Review deciding '"
            + review.getDecision()
            + "' does not leave the Request "
            + request.getStatus());
    if (RequestResolution.Outcome.of(request.getStatus())
        .filter(RequestResolution.APPROVING::contains)
        .isPresent()) {
      ApprovalScope scope = review.getApprovalScope();
      require(
          scope != null
              && requestId.equals(scope.getRequestId())
              && review.getId().equals(scope.getReviewId())
              && workSessionId.equals(scope.getAppliesToWorkSessionId()),
          "/approval_scope",
          "the approving Review's ApprovalScope is not bound to Request '" + requestId + "'");
    }
  }

  private static void require(boolean holds, String field, String reason) {
    if (!holds) {
      throw new JarvisInvalidResponseException(200, field, reason);
    }
  }
}
