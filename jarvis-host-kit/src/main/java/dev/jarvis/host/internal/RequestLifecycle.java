package dev.jarvis.host.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.model.Request;
import dev.jarvis.model.RequestStatus;
import dev.jarvis.model.SafeFallback;
import dev.jarvis.model.WorkSessionStatus;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/**
 * The states a Request moves through that no client writes. A Request is open while {@code pending}
 * or {@code acknowledged}; only an open Request blocks completion, counts toward {@code
 * max_pending_requests} or can be resolved. The host closes one in two ways besides a Review or
 * Takeover: past its {@code expires_at} it becomes {@code expired} (event {@value #EXPIRED_EVENT},
 * its {@code default_if_no_response} applied: recorded in the event, the blocked action staying
 * unapproved), and a new Request naming it as {@code duplicate_of_request_id} makes it {@code
 * superseded}. Either way the host writes {@code resolved_at} and {@code closed_by_event_ref}.
 */
final class RequestLifecycle {

  /** The type of the event the host writes when a Request expires. */
  static final String EXPIRED_EVENT = "request.expired";

  static final Set<RequestStatus> OPEN =
      EnumSet.of(RequestStatus.PENDING, RequestStatus.ACKNOWLEDGED);

  /** {@link #OPEN} as the {@code status} texts the store's query by status takes. */
  static final Set<String> OPEN_STATUSES =
      OPEN.stream()
          .map(RequestStatus::getValue)
          .collect(java.util.stream.Collectors.toUnmodifiableSet());

  private RequestLifecycle() {}

  static RequestStatus status(JsonNode request) {
    return RequestStatus.fromValue(request.path(Request.JSON_PROPERTY_STATUS).asText());
  }

  static boolean isOpen(StoredRecord request) {
    return OPEN.contains(status(request.body()));
  }

  /** Whether an open Request's {@code expires_at} is reached at {@code now}. */
  static boolean isDue(StoredRecord request, Instant now) {
    return isOpen(request)
        && Timestamps.of(request.body().path(Request.JSON_PROPERTY_EXPIRES_AT))
            .filter(e -> !e.isAfter(now))
            .isPresent();
  }

  /** The Request closed by the host's {@value #EXPIRED_EVENT} event {@code eventId}. */
  static StoredRecord expired(StoredRecord request, String eventId, Instant now) {
    return closed(request, RequestStatus.EXPIRED, eventId, now, Optional.empty());
  }

  /** The Request superseded by {@code byRequestId}, whose creation event is {@code eventId}. */
  static StoredRecord superseded(
      StoredRecord request, String byRequestId, String eventId, Instant now) {
    return closed(request, RequestStatus.SUPERSEDED, eventId, now, Optional.of(byRequestId));
  }

  /**
   * The WorkSession's status once Request {@code closedId} is no longer open: back to {@code
   * active} from {@code waiting_on_human} when no other Request is open; otherwise unchanged.
   */
  static Optional<WorkSessionStatus> statusAfterClosing(SessionView session, String closedId) {
    if (!WorkSessionStatus.WAITING_ON_HUMAN.getValue().equals(session.session().status())) {
      return Optional.empty();
    }
    boolean othersOpen =
        session.openRequests().stream().anyMatch(other -> !other.id().equals(closedId));
    return othersOpen ? Optional.empty() : Optional.of(WorkSessionStatus.ACTIVE);
  }

  /** The sentence an expiry event carries: what {@code default_if_no_response} says happens. */
  static String fallbackSummary(JsonNode request) {
    JsonNode fallback = request.path(Request.JSON_PROPERTY_DEFAULT_IF_NO_RESPONSE);
    return "Expired without a response; default_if_no_response applies: "
        + fallback.path(SafeFallback.JSON_PROPERTY_ACTION).asText()
        + " ("
        + fallback.path(SafeFallback.JSON_PROPERTY_REASON).asText()
        + ")";
  }

  private static StoredRecord closed(
      StoredRecord request,
      RequestStatus status,
      String eventId,
      Instant now,
      Optional<String> supersededBy) {
    ObjectNode body = ((ObjectNode) request.body()).deepCopy();
    body.put(Request.JSON_PROPERTY_STATUS, status.getValue());
    body.put(Request.JSON_PROPERTY_RESOLVED_AT, Timestamps.format(now));
    body.put(Request.JSON_PROPERTY_CLOSED_BY_EVENT_REF, eventId);
    supersededBy.ifPresent(id -> body.put(Request.JSON_PROPERTY_SUPERSEDED_BY_REQUEST_ID, id));
    return new StoredRecord(
        request.kind(), request.id(), request.workSessionId(), body, request.recordedAt());
  }
}
