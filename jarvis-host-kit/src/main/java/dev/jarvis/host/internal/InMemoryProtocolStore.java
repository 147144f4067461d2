package dev.jarvis.host.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.host.ChainWrite;
import dev.jarvis.host.CommitResult;
import dev.jarvis.host.IdempotencyClaim;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.RecordWrite;
import dev.jarvis.host.StoreBackend;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.StoredSession;
import dev.jarvis.host.UnitOfWork;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * WorkSessions, events, records and idempotency records in memory. One monitor guards everything: a
 * commit checks every condition before it writes anything, which makes it atomic the way one
 * database transaction is, and two host instances sharing this object behave as one.
 */
public final class InMemoryProtocolStore implements StoreBackend {

  // Enough to outpace the claims: each claim adds one record and drops up to this many expired.
  private static final int EVICTIONS_PER_CLAIM = 4;

  /** One kind of record in one WorkSession, or in none ({@code ""}). */
  private record Shelf(RecordKind kind, String workSessionId) {}

  private record Citation(String workSessionId, String ref) {}

  private record KindAndId(RecordKind kind, String id) {}

  private final Map<String, StoredSession> sessions = new HashMap<>();
  private final Map<String, List<JsonNode>> events = new HashMap<>();
  private final Map<String, Map<String, JsonNode>> eventsById = new HashMap<>();
  private final Map<Citation, Long> citations = new HashMap<>();
  // Replacing keeps a LinkedHashMap's insertion position, so inSession stays in first-write order.
  private final Map<Shelf, Map<String, StoredRecord>> records = new HashMap<>();
  // In claim order, so that the oldest records are the first ones a claim looks at for eviction.
  private final Map<Scope, Entry> idempotency = new LinkedHashMap<>();
  // The WorkSession holding each (kind, id): ids of WorkSession records are host-wide.
  private final Map<KindAndId, String> holderOfId = new HashMap<>();
  // The indexes countCreatedBy and countRequestsTargeting answer from: neither the creator of a
  // WorkSession nor the target of a Request ever changes, so entries are only ever added.
  private final Map<String, Set<String>> sessionsByCreator = new HashMap<>();
  // In first-write order, as requestsTargeting answers.
  private final Map<String, Set<String>> requestsByTarget = new HashMap<>();

  @Override
  public synchronized CommitResult commit(Mutation mutation) {
    Optional<IdempotencyClaim> claim = mutation.claim();
    if (claim.isPresent()) {
      Optional<Entry> live = find(claim.get().scope(), claim.get().notBefore());
      if (live.isPresent()) {
        return CommitResult.keyTaken(live.get());
      }
    }
    if (mutation.chain().isPresent() && !holds(mutation.chain().get())) {
      return CommitResult.conflict();
    }
    Map<KindAndId, String> holders = new HashMap<>();
    for (RecordWrite write : mutation.records()) {
      StoredRecord record = write.record();
      if (write.createOnly() && shelf(record).containsKey(record.id())) {
        return CommitResult.conflict();
      }
      if (record.workSessionId().isPresent()) {
        KindAndId key = new KindAndId(record.kind(), record.id());
        String holder = holders.computeIfAbsent(key, k -> holderOfId.getOrDefault(k, ""));
        String workSessionId = record.workSessionId().get();
        if (holder.isEmpty()) {
          holders.put(key, workSessionId);
        } else if (!holder.equals(workSessionId)) {
          // Ids of WorkSession records are host-wide: another WorkSession holds this one.
          return CommitResult.conflict();
        }
      }
    }
    // Every condition held: the step runs before anything is written, so its failure writes
    // nothing.
    mutation.runStep(UnitOfWork.withoutResources());
    claim.ifPresent(this::claim);
    mutation.chain().ifPresent(this::apply);
    for (RecordWrite write : mutation.records()) {
      StoredRecord record = write.record();
      shelf(record).put(record.id(), record);
      if (record.kind() == RecordKind.REQUEST && record.workSessionId().isPresent()) {
        requestsByTarget
            .computeIfAbsent(
                record.body().path("target_human_worker_id").asText(), k -> new LinkedHashSet<>())
            .add(record.id());
      }
      record
          .workSessionId()
          .ifPresent(ws -> holderOfId.putIfAbsent(new KindAndId(record.kind(), record.id()), ws));
    }
    return CommitResult.committed();
  }

  /**
   * Stores the claim's record at the end of the insertion order (a replaced expired record moves
   * there too) and drops expired records from the front, so that a host that never runs {@link
   * #deleteExpired} still keeps only live records: the retention is the claim's own, from the host
   * clock.
   */
  private void claim(IdempotencyClaim claim) {
    idempotency.remove(claim.scope());
    idempotency.put(claim.scope(), claim.entry());
    Iterator<Entry> oldest = idempotency.values().iterator();
    for (int dropped = 0; dropped < EVICTIONS_PER_CLAIM && oldest.hasNext(); dropped++) {
      if (!oldest.next().storedAt().isBefore(claim.notBefore())) {
        break;
      }
      oldest.remove();
    }
  }

  private boolean holds(ChainWrite write) {
    StoredSession current = sessions.get(write.workSessionId());
    if (write instanceof ChainWrite.Genesis) {
      return current == null;
    }
    ChainCursor expected =
        write instanceof ChainWrite.Append append
            ? append.expected()
            : ((ChainWrite.Seal) write).expected();
    return current != null && !current.sealed() && current.cursor().equals(expected);
  }

  private void apply(ChainWrite write) {
    String id = write.workSessionId();
    if (write instanceof ChainWrite.Genesis genesis) {
      sessions.put(id, genesis.session());
      sessionsByCreator
          .computeIfAbsent(
              genesis.session().snapshot().path("created_by_actor_id").asText(),
              k -> new HashSet<>())
          .add(id);
      events.put(id, new ArrayList<>());
      eventsById.put(id, new HashMap<>());
      addEvent(id, genesis.firstEvent());
    } else if (write instanceof ChainWrite.Append append) {
      sessions.put(id, append.updated());
      addEvent(id, append.event());
    } else {
      sessions.put(id, new StoredSession(sessions.get(id).snapshot(), true));
    }
  }

  private void addEvent(String workSessionId, JsonNode event) {
    events.get(workSessionId).add(event);
    eventsById.get(workSessionId).putIfAbsent(event.path("id").asText(), event);
    for (String ref : RecordFields.texts(event.path("payload").path("evidence_refs"))) {
      citations.merge(new Citation(workSessionId, ref), 1L, Long::sum);
    }
  }

  private Map<String, StoredRecord> shelf(StoredRecord record) {
    return records.computeIfAbsent(
        new Shelf(record.kind(), record.workSessionId().orElse("")), s -> new LinkedHashMap<>());
  }

  private Map<String, StoredRecord> shelf(RecordKind kind, String workSessionId) {
    return records.getOrDefault(new Shelf(kind, workSessionId), Map.of());
  }

  @Override
  public synchronized Optional<StoredSession> find(String workSessionId) {
    return Optional.ofNullable(sessions.get(workSessionId));
  }

  @Override
  public synchronized List<JsonNode> events(String workSessionId) {
    return List.copyOf(events.getOrDefault(workSessionId, List.of()));
  }

  @Override
  public synchronized List<JsonNode> events(String workSessionId, long afterSequence, int limit) {
    List<JsonNode> chain = events.getOrDefault(workSessionId, List.of());
    // The chain holds sequence n at index n - 1, so a page is a slice, found without a scan.
    int from = (int) Math.min(afterSequence, chain.size());
    int to = (int) Math.min((long) from + limit, chain.size());
    return List.copyOf(chain.subList(from, to));
  }

  @Override
  public synchronized Optional<JsonNode> event(String workSessionId, String eventId) {
    return Optional.ofNullable(eventsById.getOrDefault(workSessionId, Map.of()).get(eventId));
  }

  @Override
  public synchronized long countCiting(String workSessionId, String ref) {
    return citations.getOrDefault(new Citation(workSessionId, ref), 0L);
  }

  @Override
  public synchronized long countCreatedBy(String actorId, Set<String> statuses) {
    return sessionsByCreator.getOrDefault(actorId, Set.of()).stream()
        .filter(id -> statuses.contains(sessions.get(id).status()))
        .count();
  }

  @Override
  public synchronized List<StoredRecord> requestsTargeting(
      String humanWorkerId, Set<String> statuses) {
    return requestsByTarget.getOrDefault(humanWorkerId, Set.of()).stream()
        .map(id -> findInAnyWorkSession(RecordKind.REQUEST, id).orElseThrow())
        .filter(r -> humanWorkerId.equals(r.body().path("target_human_worker_id").asText()))
        .filter(r -> statuses.contains(r.body().path("status").asText()))
        .toList();
  }

  @Override
  public synchronized Optional<StoredRecord> find(RecordKind kind, String id) {
    return Optional.ofNullable(shelf(kind, "").get(id));
  }

  @Override
  public synchronized Optional<StoredRecord> find(
      RecordKind kind, String workSessionId, String id) {
    return Optional.ofNullable(shelf(kind, workSessionId).get(id));
  }

  @Override
  public synchronized Optional<StoredRecord> findInAnyWorkSession(RecordKind kind, String id) {
    return Optional.ofNullable(holderOfId.get(new KindAndId(kind, id)))
        .map(workSessionId -> shelf(kind, workSessionId).get(id));
  }

  @Override
  public synchronized List<StoredRecord> inSession(RecordKind kind, String workSessionId) {
    return List.copyOf(shelf(kind, workSessionId).values());
  }

  @Override
  public synchronized List<StoredRecord> inSession(
      RecordKind kind, String workSessionId, Set<String> statuses) {
    List<StoredRecord> out = new ArrayList<>();
    for (StoredRecord record : inSession(kind, workSessionId)) {
      if (statuses.contains(record.body().path("status").asText())) {
        out.add(record);
      }
    }
    return out;
  }

  @Override
  public synchronized Optional<Entry> find(Scope scope, Instant notBefore) {
    Entry entry = idempotency.get(scope);
    return entry == null || entry.storedAt().isBefore(notBefore)
        ? Optional.empty()
        : Optional.of(entry);
  }

  @Override
  public synchronized int deleteExpired(Instant notBefore, int limit) {
    int deleted = 0;
    Iterator<Entry> it = idempotency.values().iterator();
    while (it.hasNext() && deleted < limit) {
      if (it.next().storedAt().isBefore(notBefore)) {
        it.remove();
        deleted++;
      }
    }
    return deleted;
  }
}
