package dev.jarvis.host.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.RecordStore;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.StoredSession;
import dev.jarvis.host.WorkSessionStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * WorkSessions, events and records in memory. One monitor guards everything, which makes each write
 * atomic in the way one database transaction would be; the host's per-WorkSession lock keeps
 * contention on it short.
 */
public final class InMemoryProtocolStore implements WorkSessionStore, RecordStore {

  private record RecordKey(RecordKind kind, String id) {}

  private final Map<String, StoredSession> sessions = new HashMap<>();
  private final Map<String, List<JsonNode>> events = new HashMap<>();
  private final Map<RecordKey, StoredRecord> records = new LinkedHashMap<>();

  @Override
  public synchronized Optional<StoredSession> find(String workSessionId) {
    return Optional.ofNullable(sessions.get(workSessionId));
  }

  @Override
  public synchronized List<JsonNode> events(String workSessionId) {
    return List.copyOf(events.getOrDefault(workSessionId, List.of()));
  }

  @Override
  public synchronized boolean create(StoredSession session, JsonNode firstEvent) {
    if (sessions.containsKey(session.id())) {
      return false;
    }
    sessions.put(session.id(), session);
    List<JsonNode> chain = new ArrayList<>();
    chain.add(firstEvent);
    events.put(session.id(), chain);
    return true;
  }

  @Override
  public synchronized boolean append(
      String workSessionId,
      ChainCursor expected,
      JsonNode event,
      StoredSession updated,
      List<StoredRecord> written) {
    StoredSession current = sessions.get(workSessionId);
    if (current == null || current.sealed() || !current.cursor().equals(expected)) {
      return false;
    }
    sessions.put(workSessionId, updated);
    events.get(workSessionId).add(event);
    written.forEach(this::write);
    return true;
  }

  @Override
  public synchronized boolean seal(
      String workSessionId, ChainCursor expected, StoredRecord manifest) {
    StoredSession current = sessions.get(workSessionId);
    if (current == null || current.sealed() || !current.cursor().equals(expected)) {
      return false;
    }
    sessions.put(workSessionId, new StoredSession(current.snapshot(), true));
    write(manifest);
    return true;
  }

  @Override
  public synchronized Optional<StoredRecord> find(RecordKind kind, String id) {
    return Optional.ofNullable(records.get(new RecordKey(kind, id)));
  }

  @Override
  public synchronized List<StoredRecord> inSession(RecordKind kind, String workSessionId) {
    List<StoredRecord> out = new ArrayList<>();
    for (StoredRecord record : records.values()) {
      if (record.kind() == kind && record.workSessionId().equals(Optional.of(workSessionId))) {
        out.add(record);
      }
    }
    return out;
  }

  @Override
  public synchronized void put(StoredRecord record) {
    write(record);
  }

  private void write(StoredRecord record) {
    // Replacing keeps the first-write position in the LinkedHashMap, so inSession stays ordered.
    records.put(new RecordKey(record.kind(), record.id()), record);
  }
}
