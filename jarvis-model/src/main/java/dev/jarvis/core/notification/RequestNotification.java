package dev.jarvis.core.notification;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * One notification that a Request waits or moved on: ids and what a receiver needs to fetch the
 * records with its own credential, never the records themselves, never a credential
 * (docs/notifications.md, "Why no Request record").
 *
 * @param id the notification's id, {@code <work_session_id>/<event_sequence>}: the same for every
 *     delivery attempt of it, so a receiver drops repeats (delivery is at least once)
 * @param kind what happened
 * @param workSessionId the WorkSession
 * @param requestId the Request; empty only for a Takeover that names none
 * @param eventId the id of the event that recorded it
 * @param eventSequence that event's sequence in the WorkSession's chain
 * @param occurredAt when the host committed it (the event's timestamp, the host's clock)
 */
public record RequestNotification(
    String id,
    Kind kind,
    String workSessionId,
    Optional<String> requestId,
    String eventId,
    long eventSequence,
    Instant occurredAt) {

  /** JSON member names of the wire form (this format is the SDK's own, not the spec's). */
  public static final String ID = "id";

  public static final String KIND = "kind";
  public static final String WORK_SESSION_ID = "work_session_id";
  public static final String REQUEST_ID = "request_id";
  public static final String EVENT_ID = "event_id";
  public static final String EVENT_SEQUENCE = "event_sequence";
  public static final String OCCURRED_AT = "occurred_at";

  private static final ObjectMapper JSON = new ObjectMapper();

  /** What happened; the wire value is the type of the event that recorded it. */
  public enum Kind {
    /** A Request was created: a human is asked. */
    REQUEST_CREATED("request.created"),
    /** A Request expired unanswered (the host wrote it). */
    REQUEST_EXPIRED("request.expired"),
    /** A Review was recorded on a Request. */
    REVIEW("review.recorded"),
    /** A Takeover was recorded or moved on. */
    TAKEOVER("takeover.recorded");

    private final String wire;

    Kind(String wire) {
      this.wire = wire;
    }

    /** The wire value, the event type. */
    public String wire() {
      return wire;
    }

    /** The kind of an event type, if it is one notifications are sent for. */
    public static Optional<Kind> ofEventType(String type) {
      return Arrays.stream(values()).filter(k -> k.wire.equals(type)).findFirst();
    }
  }

  public RequestNotification {
    Objects.requireNonNull(id, ID);
    Objects.requireNonNull(kind, KIND);
    Objects.requireNonNull(workSessionId, WORK_SESSION_ID);
    Objects.requireNonNull(requestId, REQUEST_ID);
    Objects.requireNonNull(eventId, EVENT_ID);
    Objects.requireNonNull(occurredAt, OCCURRED_AT);
  }

  /** The notification of an event, its id derived from the WorkSession and the sequence. */
  public static RequestNotification of(
      Kind kind,
      String workSessionId,
      Optional<String> requestId,
      String eventId,
      long eventSequence,
      Instant occurredAt) {
    return new RequestNotification(
        workSessionId + "/" + eventSequence,
        kind,
        workSessionId,
        requestId,
        eventId,
        eventSequence,
        occurredAt);
  }

  /** The wire form: one JSON object, members in a fixed order, UTF-8. */
  public byte[] toJson() {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put(ID, id);
    node.put(KIND, kind.wire());
    node.put(WORK_SESSION_ID, workSessionId);
    requestId.ifPresent(r -> node.put(REQUEST_ID, r));
    node.put(EVENT_ID, eventId);
    node.put(EVENT_SEQUENCE, eventSequence);
    node.put(OCCURRED_AT, occurredAt.toString());
    try {
      return JSON.writeValueAsBytes(node);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Reads the wire form. Members this version does not know are ignored (a later host may add
   * some); a missing or mistyped one is refused.
   *
   * @throws IllegalArgumentException when {@code json} is not a notification
   */
  public static RequestNotification fromJson(byte[] json) {
    JsonNode node;
    try {
      node = JSON.readTree(json);
    } catch (IOException e) {
      throw new IllegalArgumentException("not JSON", e);
    }
    if (node == null || !node.isObject()) {
      throw new IllegalArgumentException("a notification is a JSON object");
    }
    String kindValue = text(node, KIND);
    Kind kind =
        Kind.ofEventType(kindValue)
            .orElseThrow(() -> new IllegalArgumentException("unknown kind " + kindValue));
    JsonNode sequence = node.get(EVENT_SEQUENCE);
    if (sequence == null || !sequence.canConvertToExactIntegral() || !sequence.isIntegralNumber()) {
      throw new IllegalArgumentException(EVENT_SEQUENCE + " must be an integer");
    }
    Optional<String> requestId =
        node.has(REQUEST_ID) ? Optional.of(text(node, REQUEST_ID)) : Optional.empty();
    Instant occurredAt;
    try {
      occurredAt = Instant.parse(text(node, OCCURRED_AT));
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException(OCCURRED_AT + " is not an RFC 3339 instant", e);
    }
    return new RequestNotification(
        text(node, ID),
        kind,
        text(node, WORK_SESSION_ID),
        requestId,
        text(node, EVENT_ID),
        sequence.longValue(),
        occurredAt);
  }

  /** {@link #fromJson(byte[])} of UTF-8 text. */
  public static RequestNotification fromJson(String json) {
    return fromJson(json.getBytes(StandardCharsets.UTF_8));
  }

  private static String text(JsonNode node, String name) {
    JsonNode value = node.get(name);
    if (value == null || !value.isTextual()) {
      throw new IllegalArgumentException(name + " must be a string");
    }
    return value.asText();
  }
}
