package dev.jarvis.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** What the stub host keeps for one WorkSession: its record, its event chain and its records. */
final class WorkSessionState {

  /** The statuses after which a WorkSession takes no more mutations and may be exported. */
  static final Set<String> TERMINAL = Set.of("completed", "failed", "cancelled", "closed");

  private final ObjectNode session;
  private final List<ObjectNode> events = new ArrayList<>();
  private final Map<String, List<String>> recordIds = new LinkedHashMap<>();
  private ChainCursor cursor = ChainCursor.GENESIS;

  WorkSessionState(ObjectNode session) {
    this.session = session;
  }

  String id() {
    return session.path("id").asText();
  }

  ChainCursor cursor() {
    return cursor;
  }

  boolean isTerminal() {
    return TERMINAL.contains(session.path("status").asText());
  }

  /** Appends an event that was checked to continue the chain, and advances the record. */
  void append(ObjectNode event, String updatedAt) {
    events.add(event.deepCopy());
    cursor = cursor.advance(event.path("event_hash").asText());
    session.put("revision", cursor.revision());
    session.put("last_event_hash", cursor.lastEventHash());
    session.put("updated_at", updatedAt);
  }

  void setStatus(String status) {
    session.put("status", status);
  }

  /** Remembers the id of a record accepted into this WorkSession, by its schema name. */
  void addRecord(String schemaName, JsonNode record) {
    recordIds.computeIfAbsent(schemaName, k -> new ArrayList<>()).add(record.path("id").asText());
  }

  List<String> recordIds(String schemaName) {
    return List.copyOf(recordIds.getOrDefault(schemaName, List.of()));
  }

  /** A copy of the WorkSession record as it stands. */
  ObjectNode snapshot() {
    return session.deepCopy();
  }

  /** Copies of the events, in chain order. */
  List<ObjectNode> events() {
    List<ObjectNode> copies = new ArrayList<>();
    events.forEach(e -> copies.add(e.deepCopy()));
    return copies;
  }
}
