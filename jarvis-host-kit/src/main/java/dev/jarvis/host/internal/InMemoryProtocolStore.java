package dev.jarvis.host.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.host.ChainWrite;
import dev.jarvis.host.CommitResult;
import dev.jarvis.host.IdempotencyClaim;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.RecordWrite;
import dev.jarvis.host.StoreBackend;
import dev.jarvis.host.StoreUnavailableException;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.StoredSession;
import dev.jarvis.host.UnitOfWork;
import dev.jarvis.host.notify.NotificationOutbox;
import dev.jarvis.model.Actor;
import dev.jarvis.model.JarvisEvent;
import dev.jarvis.model.JarvisEventPayload;
import dev.jarvis.model.Request;
import dev.jarvis.model.WorkSession;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

/**
 * WorkSessions, events, records and idempotency records in memory, guarded per WorkSession: each
 * WorkSession's chain and records (and the records outside any WorkSession, as one more) have a
 * lock of their own, and a commit holds only the locks of the WorkSessions it writes (in one global
 * order, so two commits never wait for each other in a circle), plus the lock of its idempotency
 * scope. Commits of different WorkSessions never wait for each other. A commit checks every
 * condition before it writes anything, which makes it atomic the way one database transaction is,
 * and two host instances sharing this object behave as one.
 *
 * <p>What WorkSessions share is in concurrent maps: the idempotency records, the host-wide ids (a
 * commit reserves each new id with one atomic insert after its other checks held, and gives the
 * reservations back if the id is another WorkSession's or its step fails) and the indexes of the
 * per-principal counts.
 */
public final class InMemoryProtocolStore implements StoreBackend {

  // Enough to outpace the claims: each claim adds one record and drops up to this many expired.
  private static final int EVICTIONS_PER_CLAIM = 4;

  // The shard of the records outside any WorkSession.
  private static final String NO_WORK_SESSION = "";

  private record KindAndId(RecordKind kind, String id) {}

  /** One claim in claim order, so that the oldest records are the first ones evicted. */
  private record Claimed(Scope scope, Entry entry) {}

  /** One WorkSession's chain, citations and records (or those outside any), under its lock. */
  private static final class Shard {
    final ReentrantLock lock = new ReentrantLock();
    StoredSession session;
    // Each event as its JSON bytes, read back into a tree when asked for: one object per event
    // for the collector to move and keep, where a tree is dozens. Every event is kept for the
    // store's life, and with trees the young collections that promote them took half the CPU of an
    // append under load (docs/benchmarks.md, "In memory: the collector's share").
    final List<byte[]> events = new ArrayList<>();
    // An event's place in events: its sequence less one.
    final Map<String, Integer> eventsById = new HashMap<>();
    final Map<String, Long> citations = new HashMap<>();
    // Replacing keeps a LinkedHashMap's insertion position, so inSession stays in first-write
    // order.
    final Map<RecordKind, Map<String, StoredRecord>> records = new EnumMap<>(RecordKind.class);

    Map<String, StoredRecord> shelf(RecordKind kind) {
      return records.computeIfAbsent(kind, k -> new LinkedHashMap<>());
    }
  }

  private final ConcurrentHashMap<String, Shard> shards = new ConcurrentHashMap<>();
  private final InMemoryOutbox outbox = new InMemoryOutbox();
  // Written under the WorkSession's lock; read without one (a snapshot is immutable once stored).
  private final ConcurrentHashMap<String, StoredSession> sessions = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Scope, Entry> idempotency = new ConcurrentHashMap<>();
  private final ConcurrentLinkedQueue<Claimed> claimOrder = new ConcurrentLinkedQueue<>();
  // Evicting from the front is one thread's at a time; a claim that finds it busy leaves it to the
  // next one rather than wait.
  private final ReentrantLock evicting = new ReentrantLock();
  private final KeyedLocks<Scope> scopes;
  // How long a commit or a read waits for a WorkSession's lock: a commit's step (an outbox, a hook)
  // may stall, and a request behind it is answered 503 in bounded time rather than hang with it.
  private final Duration lockWait;
  // The WorkSession holding each (kind, id): ids of WorkSession records are host-wide.
  private final ConcurrentHashMap<KindAndId, String> holderOfId = new ConcurrentHashMap<>();
  // The indexes countCreatedBy and countRequestsTargeting answer from: neither the creator of a
  // WorkSession nor the target of a Request ever changes, so entries are only ever added.
  private final ConcurrentHashMap<String, Set<String>> sessionsByCreator =
      new ConcurrentHashMap<>();
  // In first-write order, as requestsTargeting answers; each set guarded by its own monitor.
  private final ConcurrentHashMap<String, Set<String>> requestsByTarget = new ConcurrentHashMap<>();
  // The Actors each Worker has had, in first-write order, as actorsOf answers; an Actor registered
  // again under another Worker stays listed under the first, and actorsOf reads its body to tell.
  private final ConcurrentHashMap<String, Set<String>> actorsByWorker = new ConcurrentHashMap<>();
  // The index requestsDue answers from: each open Request with a readable expires_at, by expiry.
  // Kept by the commit that writes the Request (under its WorkSession's lock); dueById finds a
  // Request's entry to replace when it is written again (closed, or moved).
  private final java.util.concurrent.ConcurrentSkipListSet<Due> openByExpiry =
      new java.util.concurrent.ConcurrentSkipListSet<>();
  private final ConcurrentHashMap<String, Due> dueById = new ConcurrentHashMap<>();
  // The index inbox answers from: per target human Worker and Request status, the Requests by
  // their position (the order of first writes, numbered from requestOrder). Kept by the commit that
  // writes the Request, under its WorkSession's lock; inboxPlace finds its entry to move when its
  // status changes.
  private final ConcurrentHashMap<
          String, ConcurrentHashMap<String, ConcurrentSkipListMap<Long, String>>>
      inboxIndex = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, InboxPlace> inboxPlace = new ConcurrentHashMap<>();
  private final java.util.concurrent.atomic.AtomicLong requestOrder =
      new java.util.concurrent.atomic.AtomicLong();

  /** Where a Request is filed in {@link #inboxIndex}, and its WorkSession. */
  private record InboxPlace(long position, String target, String status, String workSessionId) {}

  /** An open Request's place in {@link #openByExpiry}. */
  private record Due(Instant expiresAt, String workSessionId, String requestId)
      implements Comparable<Due> {
    @Override
    public int compareTo(Due other) {
      int byTime = expiresAt.compareTo(other.expiresAt);
      if (byTime != 0) {
        return byTime;
      }
      int bySession = workSessionId.compareTo(other.workSessionId);
      return bySession != 0 ? bySession : requestId.compareTo(other.requestId);
    }
  }

  public InMemoryProtocolStore() {
    this(KeyedLocks.DEFAULT_WAIT);
  }

  /** The store whose commits and reads wait at most {@code lockWait} for a WorkSession's lock. */
  InMemoryProtocolStore(Duration lockWait) {
    this.lockWait = lockWait;
    this.scopes = new KeyedLocks<>(lockWait);
  }

  /** Nothing outside the JVM: its only waits are for its own locks, held for microseconds. */
  @Override
  public boolean mayWait() {
    return false;
  }

  @Override
  public Optional<NotificationOutbox> notificationOutbox() {
    return Optional.of(outbox);
  }

  @Override
  public CommitResult commit(Mutation mutation) {
    Optional<IdempotencyClaim> claim = mutation.claim();
    if (claim.isPresent()) {
      return scopes.with(claim.get().scope(), () -> commitInShards(mutation));
    }
    return commitInShards(mutation);
  }

  /** Holds the locks of every WorkSession the mutation writes, in their ids' order, and commits. */
  private CommitResult commitInShards(Mutation mutation) {
    TreeSet<String> ids = new TreeSet<>();
    mutation.chain().ifPresent(write -> ids.add(write.workSessionId()));
    for (RecordWrite write : mutation.records()) {
      ids.add(write.record().workSessionId().orElse(NO_WORK_SESSION));
    }
    List<Shard> held = new ArrayList<>(ids.size());
    try {
      for (String id : ids) {
        Shard shard = shards.computeIfAbsent(id, k -> new Shard());
        acquire(shard, id);
        held.add(shard);
      }
      return commitHolding(mutation);
    } finally {
      for (int i = held.size() - 1; i >= 0; i--) {
        held.get(i).lock.unlock();
      }
    }
  }

  private CommitResult commitHolding(Mutation mutation) {
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
    for (RecordWrite write : mutation.records()) {
      StoredRecord record = write.record();
      if (write.createOnly() && shelf(record).containsKey(record.id())) {
        return CommitResult.conflict();
      }
    }
    // The last condition, the only one other WorkSessions' commits can race: each new host-wide id
    // is reserved, and given back if the commit does not happen.
    List<KindAndId> reserved = new ArrayList<>();
    for (RecordWrite write : mutation.records()) {
      StoredRecord record = write.record();
      if (record.workSessionId().isPresent()) {
        KindAndId key = new KindAndId(record.kind(), record.id());
        String workSessionId = record.workSessionId().get();
        String holder = holderOfId.putIfAbsent(key, workSessionId);
        if (holder == null) {
          reserved.add(key);
        } else if (!holder.equals(workSessionId)) {
          // Ids of WorkSession records are host-wide: another WorkSession holds this one.
          release(reserved);
          return CommitResult.conflict();
        }
      }
    }
    // Every condition held: the step runs before anything else is written, so its failure writes
    // nothing.
    try {
      mutation.runStep(UnitOfWork.withoutResources());
    } catch (RuntimeException e) {
      release(reserved);
      throw e;
    }
    claim.ifPresent(this::claim);
    mutation.chain().ifPresent(this::apply);
    mutation.notification().ifPresent(outbox::add);
    for (RecordWrite write : mutation.records()) {
      StoredRecord record = write.record();
      shelf(record).put(record.id(), record);
      if (record.kind() == RecordKind.REQUEST && record.workSessionId().isPresent()) {
        index(requestsByTarget, record, Request.JSON_PROPERTY_TARGET_HUMAN_WORKER_ID);
        indexExpiry(record);
        indexInbox(record);
      }
      if (record.kind() == RecordKind.ACTOR && record.workSessionId().isEmpty()) {
        index(actorsByWorker, record, Actor.JSON_PROPERTY_WORKER_ID);
      }
    }
    return CommitResult.committed();
  }

  /** Adds the record's id under the value of its body's {@code member}, in first-write order. */
  private static void index(
      ConcurrentHashMap<String, Set<String>> index, StoredRecord record, String member) {
    Set<String> ids =
        index.computeIfAbsent(record.body().path(member).asText(), k -> new LinkedHashSet<>());
    synchronized (ids) {
      ids.add(record.id());
    }
  }

  /** Gives back the host-wide ids a commit reserved before one of its conditions failed. */
  private void release(List<KindAndId> reserved) {
    for (KindAndId key : reserved) {
      holderOfId.remove(key);
    }
  }

  /**
   * Stores the claim's record at the end of the claim order (a replaced expired record moves there
   * too) and drops expired records from the front, so that a host that never runs {@link
   * #deleteExpired} still keeps only live records: the retention is the claim's own, from the host
   * clock.
   */
  private void claim(IdempotencyClaim claim) {
    idempotency.put(claim.scope(), claim.entry());
    claimOrder.add(new Claimed(claim.scope(), claim.entry()));
    if (!evicting.tryLock()) {
      return;
    }
    try {
      for (int dropped = 0; dropped < EVICTIONS_PER_CLAIM; dropped++) {
        Claimed oldest = claimOrder.peek();
        if (oldest == null || !oldest.entry().storedAt().isBefore(claim.notBefore())) {
          break;
        }
        claimOrder.poll();
        // A record claimed again since stays: it is another entry, further back in the order.
        idempotency.remove(oldest.scope(), oldest.entry());
      }
    } finally {
      evicting.unlock();
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

  /** Under the lock of the WorkSession written. */
  private void apply(ChainWrite write) {
    String id = write.workSessionId();
    Shard shard = shards.get(id);
    if (write instanceof ChainWrite.Genesis genesis) {
      shard.session = genesis.session();
      sessions.put(id, genesis.session());
      sessionsByCreator
          .computeIfAbsent(
              genesis
                  .session()
                  .snapshot()
                  .path(WorkSession.JSON_PROPERTY_CREATED_BY_ACTOR_ID)
                  .asText(),
              k -> ConcurrentHashMap.newKeySet())
          .add(id);
      addEvent(shard, genesis.firstEvent());
    } else if (write instanceof ChainWrite.Append append) {
      shard.session = append.updated();
      sessions.put(id, append.updated());
      addEvent(shard, append.event());
    } else {
      StoredSession sealed = new StoredSession(shard.session.snapshot(), true);
      shard.session = sealed;
      sessions.put(id, sealed);
    }
  }

  private static void addEvent(Shard shard, JsonNode event) {
    shard.eventsById.putIfAbsent(
        event.path(JarvisEvent.JSON_PROPERTY_ID).asText(), shard.events.size());
    shard.events.add(ResponseFactory.bytes(event));
    for (String ref :
        RecordFields.texts(
            event
                .path(JarvisEvent.JSON_PROPERTY_PAYLOAD)
                .path(JarvisEventPayload.JSON_PROPERTY_EVIDENCE_REFS))) {
      shard.citations.merge(ref, 1L, Long::sum);
    }
  }

  /** Under the lock of the record's WorkSession. */
  private Map<String, StoredRecord> shelf(StoredRecord record) {
    return shards.get(record.workSessionId().orElse(NO_WORK_SESSION)).shelf(record.kind());
  }

  /** Takes the shard's lock within {@link #lockWait}, else a store fault (503, Retry-After). */
  private void acquire(Shard shard, String workSessionId) {
    boolean held;
    try {
      held = shard.lock.tryLock(lockWait.toNanos(), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StoreUnavailableException(
          "interrupted while waiting for the lock of WorkSession " + workSessionId, e);
    }
    if (!held) {
      throw new StoreUnavailableException(
          "waited "
              + lockWait.toMillis()
              + " ms for the lock of WorkSession "
              + workSessionId
              + " (a commit ahead of it has not finished)",
          null);
    }
  }

  /**
   * What {@code read} answers from the WorkSession's shard under its lock; {@code none} if none.
   */
  private <T> T read(String workSessionId, Function<Shard, T> read, T none) {
    Shard shard = shards.get(workSessionId);
    if (shard == null) {
      return none;
    }
    acquire(shard, workSessionId);
    try {
      return read.apply(shard);
    } finally {
      shard.lock.unlock();
    }
  }

  @Override
  public Optional<StoredSession> find(String workSessionId) {
    return Optional.ofNullable(sessions.get(workSessionId));
  }

  @Override
  public List<JsonNode> events(String workSessionId) {
    return read(workSessionId, shard -> trees(shard.events), List.of());
  }

  @Override
  public List<JsonNode> events(String workSessionId, long afterSequence, int limit) {
    return read(
        workSessionId,
        shard -> {
          List<byte[]> chain = shard.events;
          // The chain holds sequence n at index n - 1, so a page is a slice, found without a scan.
          int from = (int) Math.min(afterSequence, chain.size());
          int to = (int) Math.min((long) from + limit, chain.size());
          return trees(chain.subList(from, to));
        },
        List.of());
  }

  @Override
  public Optional<JsonNode> event(String workSessionId, String eventId) {
    return read(
        workSessionId,
        shard ->
            Optional.ofNullable(shard.eventsById.get(eventId))
                .map(at -> tree(shard.events.get(at))),
        Optional.empty());
  }

  private static List<JsonNode> trees(List<byte[]> events) {
    List<JsonNode> trees = new ArrayList<>(events.size());
    for (byte[] event : events) {
      trees.add(tree(event));
    }
    return Collections.unmodifiableList(trees);
  }

  private static JsonNode tree(byte[] event) {
    try {
      return JarvisJson.mapper().readTree(event);
    } catch (IOException e) {
      // The bytes are the store's own writing of a tree; they always read back.
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public long countCiting(String workSessionId, String ref) {
    return read(workSessionId, shard -> shard.citations.getOrDefault(ref, 0L), 0L);
  }

  @Override
  public long countCreatedBy(String actorId, Set<String> statuses) {
    return sessionsByCreator.getOrDefault(actorId, Set.of()).stream()
        .filter(id -> statuses.contains(sessions.get(id).status()))
        .count();
  }

  /** Files a written Request under its expiry while it is open, and takes it out once closed. */
  private void indexExpiry(StoredRecord request) {
    String workSessionId = request.workSessionId().orElseThrow();
    Optional<Instant> expiresAt =
        RequestLifecycle.isOpen(request)
            ? Timestamps.of(request.body().path(Request.JSON_PROPERTY_EXPIRES_AT))
            : Optional.empty();
    Optional<Due> now = expiresAt.map(at -> new Due(at, workSessionId, request.id()));
    Due before =
        now.isPresent() ? dueById.put(request.id(), now.get()) : dueById.remove(request.id());
    if (before != null) {
      openByExpiry.remove(before);
    }
    now.ifPresent(openByExpiry::add);
  }

  /**
   * Files a written Request under its target and status at its position (given at its first write),
   * moving it when its status changed. Under the lock of the Request's WorkSession.
   */
  private void indexInbox(StoredRecord request) {
    String target = request.body().path(Request.JSON_PROPERTY_TARGET_HUMAN_WORKER_ID).asText();
    String status = request.body().path(Request.JSON_PROPERTY_STATUS).asText();
    InboxPlace before = inboxPlace.get(request.id());
    long position = before == null ? requestOrder.incrementAndGet() : before.position();
    InboxPlace now =
        new InboxPlace(position, target, status, request.workSessionId().orElseThrow());
    if (now.equals(before)) {
      return;
    }
    // The place first: a reader that finds the id on a shelf finds its WorkSession.
    inboxPlace.put(request.id(), now);
    inboxShelf(target, status).put(position, request.id());
    if (before != null && !(before.target().equals(target) && before.status().equals(status))) {
      inboxShelf(before.target(), before.status()).remove(position);
    }
  }

  private ConcurrentSkipListMap<Long, String> inboxShelf(String target, String status) {
    return inboxIndex
        .computeIfAbsent(target, t -> new ConcurrentHashMap<>())
        .computeIfAbsent(status, s -> new ConcurrentSkipListMap<>());
  }

  @Override
  public List<dev.jarvis.host.InboxEntry> inbox(
      String humanWorkerId, Set<String> statuses, long after, int limit) {
    Map<String, ConcurrentSkipListMap<Long, String>> byStatus =
        inboxIndex.getOrDefault(humanWorkerId, new ConcurrentHashMap<>());
    // The first `limit` of each wanted status, merged by position: a page reads no more than that.
    TreeSet<Long> positions = new TreeSet<>();
    Map<Long, String> requestIds = new HashMap<>();
    for (String status : statuses) {
      ConcurrentSkipListMap<Long, String> shelf = byStatus.get(status);
      if (shelf == null) {
        continue;
      }
      int taken = 0;
      for (Map.Entry<Long, String> e : shelf.tailMap(after, false).entrySet()) {
        if (taken++ >= limit) {
          break;
        }
        positions.add(e.getKey());
        requestIds.put(e.getKey(), e.getValue());
      }
    }
    List<dev.jarvis.host.InboxEntry> page = new ArrayList<>();
    for (long position : positions) {
      if (page.size() >= limit) {
        break;
      }
      String id = requestIds.get(position);
      // Read as stored now: a status changed since the index was read is left out.
      find(RecordKind.REQUEST, inboxPlace.get(id).workSessionId(), id)
          .filter(r -> statuses.contains(r.body().path(Request.JSON_PROPERTY_STATUS).asText()))
          .ifPresent(r -> page.add(new dev.jarvis.host.InboxEntry(position, r)));
    }
    return page;
  }

  @Override
  public List<StoredRecord> requestsDue(Instant notAfter, Set<String> sessionStatuses, int limit) {
    List<StoredRecord> due = new ArrayList<>();
    for (Due entry : openByExpiry) {
      if (due.size() >= limit || entry.expiresAt().isAfter(notAfter)) {
        break;
      }
      StoredSession session = sessions.get(entry.workSessionId());
      if (session == null || session.sealed() || !sessionStatuses.contains(session.status())) {
        continue;
      }
      find(RecordKind.REQUEST, entry.workSessionId(), entry.requestId())
          .filter(RequestLifecycle::isOpen)
          .ifPresent(due::add);
    }
    return due;
  }

  @Override
  public List<StoredRecord> actorsOf(String workerId) {
    Set<String> actors = actorsByWorker.getOrDefault(workerId, Set.of());
    List<String> ids;
    synchronized (actors) {
      ids = List.copyOf(actors);
    }
    return ids.stream()
        .flatMap(id -> find(RecordKind.ACTOR, id).stream())
        .filter(a -> workerId.equals(a.body().path(Actor.JSON_PROPERTY_WORKER_ID).asText()))
        .toList();
  }

  @Override
  public List<StoredRecord> requestsTargeting(String humanWorkerId, Set<String> statuses) {
    Set<String> targeting = requestsByTarget.getOrDefault(humanWorkerId, Set.of());
    List<String> ids;
    synchronized (targeting) {
      ids = List.copyOf(targeting);
    }
    return ids.stream()
        .map(id -> findInAnyWorkSession(RecordKind.REQUEST, id).orElseThrow())
        .filter(
            r ->
                humanWorkerId.equals(
                    r.body().path(Request.JSON_PROPERTY_TARGET_HUMAN_WORKER_ID).asText()))
        .filter(r -> statuses.contains(r.body().path(Request.JSON_PROPERTY_STATUS).asText()))
        .toList();
  }

  @Override
  public Optional<StoredRecord> find(RecordKind kind, String id) {
    return find(kind, NO_WORK_SESSION, id);
  }

  @Override
  public Optional<StoredRecord> find(RecordKind kind, String workSessionId, String id) {
    return read(
        workSessionId,
        shard -> Optional.ofNullable(shard.records.getOrDefault(kind, Map.of()).get(id)),
        Optional.empty());
  }

  @Override
  public Optional<StoredRecord> findInAnyWorkSession(RecordKind kind, String id) {
    // A reserved id whose record is not written yet (or never will be) finds nothing.
    return Optional.ofNullable(holderOfId.get(new KindAndId(kind, id)))
        .flatMap(workSessionId -> find(kind, workSessionId, id));
  }

  @Override
  public List<StoredRecord> inSession(RecordKind kind, String workSessionId) {
    return read(
        workSessionId,
        shard -> List.copyOf(shard.records.getOrDefault(kind, Map.of()).values()),
        List.of());
  }

  @Override
  public List<StoredRecord> inSession(RecordKind kind, String workSessionId, Set<String> statuses) {
    List<StoredRecord> out = new ArrayList<>();
    for (StoredRecord record : inSession(kind, workSessionId)) {
      // Every record kind with a status (Requests, proposals) names it as the Request does.
      if (statuses.contains(record.body().path(Request.JSON_PROPERTY_STATUS).asText())) {
        out.add(record);
      }
    }
    return out;
  }

  @Override
  public Optional<Entry> find(Scope scope, Instant notBefore) {
    Entry entry = idempotency.get(scope);
    return entry == null || entry.storedAt().isBefore(notBefore)
        ? Optional.empty()
        : Optional.of(entry);
  }

  @Override
  public int deleteExpired(Instant notBefore, int limit) {
    int deleted = 0;
    Iterator<Map.Entry<Scope, Entry>> it = idempotency.entrySet().iterator();
    while (it.hasNext() && deleted < limit) {
      Map.Entry<Scope, Entry> record = it.next();
      if (record.getValue().storedAt().isBefore(notBefore)
          && idempotency.remove(record.getKey(), record.getValue())) {
        deleted++;
      }
    }
    // What the claim order still names of them goes when it reaches the front.
    return deleted;
  }
}
