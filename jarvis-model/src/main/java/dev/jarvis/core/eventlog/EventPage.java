package dev.jarvis.core.eventlog;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.error.ProtocolViolation;
import dev.jarvis.core.validation.PayloadValidator;
import dev.jarvis.core.validation.internal.PageShape;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * One page of a WorkSession's event log, as the {@code event-log} capability answers it: {@code
 * {"work_session_id": ..., "events": [JarvisEvent...], "has_more": true|false}}, nothing else.
 * {@code has_more} is false on the page that holds the WorkSession's last event (or none after
 * {@code after}). The events are kept as the host sent them, so that their hashes are recomputed
 * over exactly those bytes' values, never over a re-bound copy.
 *
 * @param workSessionId the WorkSession
 * @param events its events after the requested sequence, in chain order (unmodifiable)
 * @param hasMore whether events follow this page
 */
public record EventPage(String workSessionId, List<JsonNode> events, boolean hasMore) {

  private static final PageShape SHAPE =
      new PageShape(
          "jarvis_event_page",
          Set.of("work_session_id", "events", "has_more"),
          "events",
          "JarvisEvent");

  public EventPage {
    Objects.requireNonNull(workSessionId, "workSessionId");
    events = List.copyOf(events);
  }

  /** The page's JSON body. */
  public ObjectNode toJson() {
    ObjectNode page = JsonNodeFactory.instance.objectNode();
    page.put("work_session_id", workSessionId);
    ArrayNode array = page.putArray("events");
    events.forEach(array::add);
    page.put("has_more", hasMore);
    return page;
  }

  /**
   * What makes {@code body} no page: a field missing, of the wrong type or unknown, or an event
   * that is no valid {@code JarvisEvent} by the spec; empty when it is a page. The chain itself
   * (order, links, hashes) is not judged here: that is an audit's finding, not a malformed answer.
   */
  public static List<ProtocolViolation> violations(JsonNode body, PayloadValidator validator) {
    return SHAPE.violations(
        body,
        validator,
        (page, found) -> {
          if (!page.path("work_session_id").isTextual()) {
            found.add(SHAPE.violation("/work_session_id", "work_session_id is a string"));
          }
        });
  }

  /**
   * The page in {@code body}, judged once.
   *
   * @throws NotAPage if {@link #violations} finds anything
   */
  public static EventPage of(JsonNode body, PayloadValidator validator) {
    List<ProtocolViolation> found = violations(body, validator);
    if (!found.isEmpty()) {
      throw new NotAPage(found);
    }
    List<JsonNode> events = new ArrayList<>();
    body.path("events").forEach(e -> events.add(e.deepCopy()));
    return new EventPage(
        body.path("work_session_id").asText(), events, body.path("has_more").asBoolean());
  }

  /** A body that is no page, with what {@link #violations} found (at least one). */
  public static final class NotAPage extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final transient List<ProtocolViolation> violations;

    NotAPage(List<ProtocolViolation> violations) {
      super("not an event page: " + violations.get(0));
      this.violations = List.copyOf(violations);
    }

    /** What makes the body no page, in the order {@link #violations} found it. */
    public List<ProtocolViolation> violations() {
      return violations;
    }
  }
}
