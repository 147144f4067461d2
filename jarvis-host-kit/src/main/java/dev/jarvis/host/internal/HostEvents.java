package dev.jarvis.host.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.JarvisEventPayload;
import dev.jarvis.model.WorkSession;
import java.time.Instant;

/**
 * The parts of a chain step the host writes itself, alike for a member's mutation and the host's
 * own events (a Request's expiry): the draft of a host-built event, and the WorkSession snapshot's
 * cursor fields after it.
 */
final class HostEvents {

  private HostEvents() {}

  /**
   * A host-built event before {@code EventChain.next} links it: id ({@link HostEventIds}), type,
   * WorkSession, Actor, timestamp and the payload naming its object.
   */
  static ObjectNode draft(
      String workSessionId,
      long sequence,
      String type,
      String actorId,
      Instant now,
      String objectType,
      String objectId) {
    ObjectNode event = JsonNodeFactory.instance.objectNode();
    event.put(JarvisEvent.JSON_PROPERTY_ID, HostEventIds.eventId(workSessionId, sequence));
    event.put(JarvisEvent.JSON_PROPERTY_TYPE, type);
    event.put(JarvisEvent.JSON_PROPERTY_WORK_SESSION_ID, workSessionId);
    event.put(JarvisEvent.JSON_PROPERTY_ACTOR_ID, actorId);
    event.put(JarvisEvent.JSON_PROPERTY_TIMESTAMP, Timestamps.format(now));
    ObjectNode payload = event.putObject(JarvisEvent.JSON_PROPERTY_PAYLOAD);
    payload.put(JarvisEventPayload.JSON_PROPERTY_OBJECT_TYPE, objectType);
    payload.put(JarvisEventPayload.JSON_PROPERTY_OBJECT_ID, objectId);
    payload.put(JarvisEventPayload.JSON_PROPERTY_ACTION, type.substring(type.indexOf('.') + 1));
    return event;
  }

  /** The snapshot's host-owned cursor fields after an event. */
  static void stamp(ObjectNode snapshot, ChainCursor cursor, Instant now) {
    snapshot.put(WorkSession.JSON_PROPERTY_REVISION, cursor.revision());
    snapshot.put(WorkSession.JSON_PROPERTY_LAST_EVENT_HASH, cursor.lastEventHash());
    snapshot.put(WorkSession.JSON_PROPERTY_UPDATED_AT, Timestamps.format(now));
  }
}
