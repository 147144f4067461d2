package dev.jarvis.host.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.notification.RequestNotification;
import dev.jarvis.core.notification.RequestNotification.Kind;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.model.ApprovalScope;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.JarvisEventPayload;
import dev.jarvis.model.Review;
import dev.jarvis.model.Takeover;
import java.util.List;
import java.util.Optional;

/**
 * The notification an accepted event gives, if its type is one of {@link Kind}: ids only, read from
 * the event and the records written with it (docs/notifications.md).
 */
final class RequestNotices {

  private RequestNotices() {}

  static Optional<RequestNotification> of(JsonNode event, List<StoredRecord> records) {
    Optional<Kind> kind = Kind.ofEventType(event.path(JarvisEvent.JSON_PROPERTY_TYPE).asText());
    if (kind.isEmpty()) {
      return Optional.empty();
    }
    Optional<String> requestId =
        switch (kind.get()) {
          case REQUEST_CREATED, REQUEST_EXPIRED ->
              text(
                  event
                      .path(JarvisEvent.JSON_PROPERTY_PAYLOAD)
                      .path(JarvisEventPayload.JSON_PROPERTY_OBJECT_ID));
          case REVIEW -> requestWritten(records).or(() -> reviewed(records));
          case TAKEOVER ->
              member(records, RecordKind.TAKEOVER, Takeover.JSON_PROPERTY_REQUEST_ID)
                  .or(() -> requestWritten(records));
        };
    return Optional.of(
        RequestNotification.of(
            kind.get(),
            event.path(JarvisEvent.JSON_PROPERTY_WORK_SESSION_ID).asText(),
            requestId,
            event.path(JarvisEvent.JSON_PROPERTY_ID).asText(),
            event.path(JarvisEvent.JSON_PROPERTY_SEQUENCE).asLong(),
            Timestamps.of(event.path(JarvisEvent.JSON_PROPERTY_TIMESTAMP))
                .orElseThrow(() -> new IllegalStateException("an event without a timestamp"))));
  }

  /** The Request a Review resolved, updated in the same unit. */
  private static Optional<String> requestWritten(List<StoredRecord> records) {
    return records.stream()
        .filter(r -> r.kind() == RecordKind.REQUEST)
        .map(StoredRecord::id)
        .findFirst();
  }

  /** The Request a Review names otherwise: {@code target_ref request:<id>} or its scope's. */
  private static Optional<String> reviewed(List<StoredRecord> records) {
    Optional<JsonNode> review =
        records.stream()
            .filter(r -> r.kind() == RecordKind.REVIEW)
            .map(StoredRecord::body)
            .findFirst();
    if (review.isEmpty()) {
      return Optional.empty();
    }
    String target = review.get().path(Review.JSON_PROPERTY_TARGET_REF).asText();
    if (target.startsWith(ReviewRule.REQUEST_PREFIX)) {
      return Optional.of(target.substring(ReviewRule.REQUEST_PREFIX.length()));
    }
    return text(
        review
            .get()
            .path(Review.JSON_PROPERTY_APPROVAL_SCOPE)
            .path(ApprovalScope.JSON_PROPERTY_REQUEST_ID));
  }

  private static Optional<String> member(List<StoredRecord> records, RecordKind kind, String name) {
    return records.stream()
        .filter(r -> r.kind() == kind)
        .findFirst()
        .flatMap(r -> text(r.body().path(name)));
  }

  private static Optional<String> text(JsonNode node) {
    return node.isTextual() ? Optional.of(node.asText()) : Optional.empty();
  }
}
