package dev.jarvis.store.tck;

import static dev.jarvis.store.tck.StoreFixtures.JSON;
import static dev.jarvis.store.tck.StoreFixtures.T0;
import static dev.jarvis.store.tck.StoreFixtures.append;
import static dev.jarvis.store.tck.StoreFixtures.claim;
import static dev.jarvis.store.tck.StoreFixtures.cursorAfter;
import static dev.jarvis.store.tck.StoreFixtures.genesis;
import static dev.jarvis.store.tck.StoreFixtures.global;
import static dev.jarvis.store.tck.StoreFixtures.record;
import static dev.jarvis.store.tck.StoreFixtures.scope;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jarvis.core.JarvisJson;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.host.ActorWithWorker;
import dev.jarvis.host.ChainWrite;
import dev.jarvis.host.CommitResult;
import dev.jarvis.host.CommitResult.Outcome;
import dev.jarvis.host.HostStores;
import dev.jarvis.host.IdempotencyClaim;
import dev.jarvis.host.IdempotencyStore;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.RecordWrite;
import dev.jarvis.host.SessionWithRecords;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.StoredResponse;
import dev.jarvis.host.StoredSession;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The contract every {@link HostStores} keeps, as a JUnit 5 suite: extend it, implement {@link
 * #newStores()} (a fresh, empty store per test) and {@link #topology()}, the explicit choice of how
 * many host instances share the store; a {@link StoreTopology#SHARED} store also implements {@link
 * #secondInstance(HostStores)} (another handle on the same data: another pool, another process's
 * view), and the concurrent tests spread their writers over both handles. Under {@link
 * StoreTopology#SINGLE_INSTANCE} the rules about several instances are reported as skipped (not
 * applicable), never as passed.
 *
 * <p>Every test checks one rule of the catalogue {@link StoreRule} and names it at the start of its
 * display name ({@code "STORE-APPEND-2: an append at a stale cursor writes nothing"}); rules of the
 * {@link StoreRule.Tier#OPTIONAL} tier are skipped for a store without the feature they are about.
 * What it holds a store to: every commit is all or nothing; a chain write is conditional on the
 * cursor (one winner under concurrency, chains stay linear); an idempotency claim is an insert that
 * fails while a live record holds the key, and the loser gets the winner's response byte for byte;
 * expired records are neither found nor kept; WorkSessions are isolated from each other; ids of
 * WorkSession records are host-wide (of writers racing one id in several WorkSessions, through
 * several instances, one wins, and host instances answer the others with the id's refusal); the
 * per-principal counts (an Actor's WorkSessions by current status, the Requests waiting on one
 * human across WorkSessions) see every write on every instance; what is stored comes back as it
 * went. No test sleeps: concurrency is started by barriers.
 */
public abstract class HostStoresContract {

  /** Writers in the concurrent tests. */
  protected static final int WRITERS = 8;

  /** Rounds of the races of one record id in {@link #WRITERS} WorkSessions. */
  protected static final int ID_RACE_ROUNDS = 5;

  private HostStores stores;
  private HostStores other;
  private ExecutorService pool;

  /** For a store's test class, which extends the contract. */
  protected HostStoresContract() {}

  /** A fresh, empty store; the suite closes it after the test. */
  protected abstract HostStores newStores() throws Exception;

  /**
   * How many host instances share the store: {@link StoreTopology#SHARED} to be held to every rule
   * ({@link #secondInstance} then opens the second handle), {@link StoreTopology#SINGLE_INSTANCE}
   * to have the rules about several instances reported as skipped. A choice every store states: no
   * default lets a single-instance store pass the instance rules by racing itself.
   */
  protected abstract StoreTopology topology();

  /**
   * Another handle on the data of {@code first}, as a second host instance would open it; the suite
   * closes it after the test. Called only for a {@link StoreTopology#SHARED} store, which must
   * override it; it must not answer {@code first} itself.
   *
   * @throws UnsupportedOperationException unless overridden
   */
  protected HostStores secondInstance(HostStores first) throws Exception {
    throw new UnsupportedOperationException(
        getClass().getName()
            + " declares StoreTopology.SHARED: override secondInstance to open another handle on"
            + " the same data");
  }

  @BeforeEach
  void open() throws Exception {
    stores = newStores();
    if (topology() == StoreTopology.SHARED) {
      other = secondInstance(stores);
      if (other == stores) {
        throw new IllegalStateException(
            "a SHARED store's secondInstance must be another handle, not the same object;"
                + " declare StoreTopology.SINGLE_INSTANCE instead");
      }
    } else {
      other = stores;
    }
    pool = Executors.newFixedThreadPool(WRITERS);
  }

  /**
   * Skips the test, as not applicable, when {@code rule} does not apply to this store's topology: a
   * single-instance store never passes a rule about several instances.
   */
  private void assumeApplies(StoreRule rule) {
    Assumptions.assumeTrue(
        rule.appliesTo(topology()),
        () ->
            rule.id()
                + " not applicable: the store declares StoreTopology."
                + topology()
                + " and the rule needs several instances");
  }

  /** Skips the test of an {@link StoreRule.Tier#OPTIONAL} outbox rule for a store without one. */
  private void assumeOutbox(StoreRule rule) {
    assumeApplies(rule);
    Assumptions.assumeTrue(
        stores.notificationOutbox().isPresent(),
        () -> rule.id() + " not applicable: the store keeps no notification outbox (optional)");
  }

  @AfterEach
  void close() throws Exception {
    if (pool != null) {
      pool.shutdownNow();
    }
    if (other != null && other != stores) {
      other.close();
    }
    if (stores != null) {
      stores.close();
    }
  }

  /** The handle writer {@code i} uses: alternately the first and the second instance. */
  private HostStores handle(int i) {
    return i % 2 == 0 ? stores : other;
  }

  private CommitResult commit(Mutation mutation) {
    return stores.commit(mutation);
  }

  private ChainCursor create(String workSessionId) {
    ChainWrite.Genesis genesis = genesis(workSessionId);
    assertEquals(Outcome.COMMITTED, commit(Mutation.of(genesis, List.of())).outcome());
    return cursorAfter(genesis.firstEvent());
  }

  private ChainCursor cursor(String workSessionId) {
    return stores.sessions().find(workSessionId).orElseThrow().cursor();
  }

  private <T> List<T> together(List<Callable<T>> tasks) throws Exception {
    return Together.run(pool, tasks);
  }

  // --- WorkSessions and chains ---

  @DisplayName("STORE-SESSION-1: a WorkSession id is created once")
  @Test
  void aWorkSessionIdIsCreatedOnce() {
    ChainCursor cursor = create("ws-1");
    assertEquals(Outcome.CONFLICT, commit(Mutation.of(genesis("ws-1"), List.of())).outcome());
    assertEquals(cursor, cursor("ws-1"));
    assertEquals(1, stores.sessions().events("ws-1").size());
  }

  @DisplayName("STORE-SESSION-2: concurrent geneses of one id have one winner")
  @Test
  void concurrentGenesesOfOneIdHaveOneWinner() throws Exception {
    List<Callable<Outcome>> tasks = new ArrayList<>();
    for (int i = 0; i < WRITERS; i++) {
      HostStores handle = handle(i);
      tasks.add(() -> handle.commit(Mutation.of(genesis("ws-race"), List.of())).outcome());
    }
    List<Outcome> outcomes = together(tasks);
    assertEquals(
        1, outcomes.stream().filter(Outcome.COMMITTED::equals).count(), outcomes::toString);
    assertEquals(1, other.sessions().events("ws-race").size());
  }

  @DisplayName(
      "STORE-APPEND-1: an append at the current cursor writes event snapshot and records together")
  @Test
  void anAppendAtTheCurrentCursorWritesEventSnapshotAndRecordsTogether() {
    ChainCursor first = create("ws-1");
    ChainWrite.Append write = append("ws-1", first);
    ChainCursor next = cursorAfter(write.event());
    StoredRecord review = record(RecordKind.REVIEW, "ws-1", "review-1", "recorded", next);
    assertEquals(
        Outcome.COMMITTED, commit(Mutation.of(write, List.of(RecordWrite.put(review)))).outcome());
    StoredSession stored = other.sessions().find("ws-1").orElseThrow();
    assertEquals(next, stored.cursor());
    assertSameJson(write.updated().snapshot(), stored.snapshot());
    List<JsonNode> events = events("ws-1");
    assertEquals(2, events.size());
    assertSameJson(genesis("ws-1").firstEvent(), events.get(0));
    assertSameJson(write.event(), events.get(1));
    assertEquals(review, other.records().find(RecordKind.REVIEW, "ws-1", "review-1").orElseThrow());
  }

  @DisplayName(
      "STORE-READ-1: a page of events holds the events after a sequence in chain order up to the limit")
  @Test
  void aPageOfEventsHoldsTheEventsAfterASequenceInChainOrderUpToTheLimit() {
    ChainCursor cursor = create("ws-1");
    for (int i = 0; i < 4; i++) {
      ChainWrite.Append write = append("ws-1", cursor);
      assertEquals(Outcome.COMMITTED, commit(Mutation.of(write, List.of())).outcome());
      cursor = cursorAfter(write.event());
    }
    List<JsonNode> all = events("ws-1");
    assertEquals(5, all.size());
    assertEquals(all.subList(0, 2), other.sessions().events("ws-1", 0, 2));
    assertEquals(all.subList(2, 5), other.sessions().events("ws-1", 2, 10));
    assertEquals(all.subList(4, 5), other.sessions().events("ws-1", 4, 1));
    assertTrue(other.sessions().events("ws-1", 5, 10).isEmpty());
    assertTrue(other.sessions().events("ws-1", Long.MAX_VALUE, 10).isEmpty());
    assertTrue(other.sessions().events("ws-none", 0, 10).isEmpty());
  }

  static Stream<Arguments> staleCursors() {
    return Stream.of(
        Arguments.of(
            "an older revision", (CursorChange) c -> new ChainCursor(0, c.lastEventHash())),
        Arguments.of("a newer revision", (CursorChange) c -> new ChainCursor(2, c.lastEventHash())),
        Arguments.of(
            "another last event hash",
            (CursorChange) c -> new ChainCursor(c.revision(), "sha256:" + "0".repeat(64))));
  }

  /** Turns the current cursor into a stale one. */
  @FunctionalInterface
  interface CursorChange {
    ChainCursor apply(ChainCursor current);
  }

  @DisplayName("STORE-APPEND-2: an append at a stale cursor writes nothing")
  @ParameterizedTest(name = "STORE-APPEND-2 at {0}")
  @MethodSource("staleCursors")
  void anAppendAtAStaleCursorWritesNothing(String what, CursorChange change) {
    ChainCursor current = create("ws-1");
    ChainWrite.Append write = append("ws-1", change.apply(current));
    IdempotencyClaim claim = claim(scope("k-stale"), "stale", T0);
    StoredRecord review = record(RecordKind.REVIEW, "ws-1", "review-1", "recorded", current);
    CommitResult result =
        commit(Mutation.of(write, List.of(RecordWrite.put(review))).claiming(claim));
    assertEquals(Outcome.CONFLICT, result.outcome());
    assertNothingWrittenAfterGenesis("ws-1", current);
    assertTrue(stores.idempotency().find(claim.scope(), T0.minusSeconds(1)).isEmpty());
  }

  @DisplayName("STORE-APPEND-3: an append to an unknown WorkSession is a conflict")
  @Test
  void anAppendToAnUnknownWorkSessionIsAConflict() {
    assertEquals(
        Outcome.CONFLICT,
        commit(Mutation.of(append("ws-none", ChainCursor.GENESIS), List.of())).outcome());
    assertTrue(stores.sessions().find("ws-none").isEmpty());
    assertTrue(stores.sessions().events("ws-none").isEmpty());
  }

  @DisplayName("STORE-APPEND-4: concurrent appends at one cursor have exactly one winner")
  @Test
  void concurrentAppendsAtOneCursorHaveExactlyOneWinner() throws Exception {
    ChainCursor cursor = create("ws-1");
    List<Callable<Outcome>> tasks = new ArrayList<>();
    for (int i = 0; i < WRITERS; i++) {
      HostStores handle = handle(i);
      String ref = "writer:" + i;
      tasks.add(() -> handle.commit(Mutation.of(append("ws-1", cursor, ref), List.of())).outcome());
    }
    List<Outcome> outcomes = together(tasks);
    assertEquals(
        1, outcomes.stream().filter(Outcome.COMMITTED::equals).count(), outcomes::toString);
    List<JsonNode> events = events("ws-1");
    assertEquals(2, events.size());
    assertEquals(Optional.empty(), EventChain.verify(events));
  }

  @DisplayName("STORE-APPEND-5: contended writers build one linear chain")
  @Test
  void contendedWritersBuildOneLinearChain() throws Exception {
    create("ws-1");
    int perWriter = 5;
    List<Callable<Integer>> tasks = new ArrayList<>();
    for (int i = 0; i < WRITERS; i++) {
      HostStores handle = handle(i);
      tasks.add(
          () -> {
            int conflicts = 0;
            for (int done = 0; done < perWriter; ) {
              ChainCursor at = handle.sessions().find("ws-1").orElseThrow().cursor();
              if (handle.commit(Mutation.of(append("ws-1", at), List.of())).outcome()
                  == Outcome.COMMITTED) {
                done++;
              } else {
                conflicts++;
              }
            }
            return conflicts;
          });
    }
    together(tasks);
    List<JsonNode> events = other.sessions().events("ws-1");
    assertEquals(1 + WRITERS * perWriter, events.size());
    assertEquals(Optional.empty(), EventChain.verify(events));
    assertEquals(cursorAfter(events.get(events.size() - 1)), cursor("ws-1"));
  }

  @DisplayName("STORE-SEAL-1: a sealed WorkSession takes no append and no second seal")
  @Test
  void aSealedWorkSessionTakesNoAppendAndNoSecondSeal() {
    ChainCursor cursor = create("ws-1");
    StoredRecord manifest = record(RecordKind.EVIDENCE_MANIFEST, "ws-1", "m-1", "", cursor);
    assertEquals(
        Outcome.COMMITTED,
        commit(
                Mutation.of(
                    new ChainWrite.Seal("ws-1", cursor), List.of(RecordWrite.create(manifest))))
            .outcome());
    assertEquals(
        Outcome.CONFLICT,
        commit(Mutation.of(new ChainWrite.Seal("ws-1", cursor), List.of())).outcome());
    assertEquals(
        Outcome.CONFLICT, commit(Mutation.of(append("ws-1", cursor), List.of())).outcome());
    StoredSession sealed = other.sessions().find("ws-1").orElseThrow();
    assertTrue(sealed.sealed());
    assertEquals(cursor, sealed.cursor());
    assertEquals(
        manifest, other.records().find(RecordKind.EVIDENCE_MANIFEST, "ws-1", "m-1").orElseThrow());
  }

  @DisplayName("STORE-SEAL-2: a seal at a stale cursor writes nothing")
  @Test
  void aSealAtAStaleCursorWritesNothing() {
    ChainCursor first = create("ws-1");
    ChainWrite.Append write = append("ws-1", first);
    commit(Mutation.of(write, List.of()));
    StoredRecord manifest = record(RecordKind.EVIDENCE_MANIFEST, "ws-1", "m-1", "", first);
    assertEquals(
        Outcome.CONFLICT,
        commit(Mutation.of(new ChainWrite.Seal("ws-1", first), List.of(RecordWrite.put(manifest))))
            .outcome());
    assertFalse(stores.sessions().find("ws-1").orElseThrow().sealed());
    assertTrue(stores.records().find(RecordKind.EVIDENCE_MANIFEST, "ws-1", "m-1").isEmpty());
  }

  // --- all or nothing ---

  @DisplayName("STORE-ATOMIC-1: an existing create only record makes the whole mutation a conflict")
  @Test
  void anExistingCreateOnlyRecordMakesTheWholeMutationAConflict() {
    ChainCursor cursor = create("ws-1");
    StoredRecord report = global(RecordKind.OUTCOME_REPORT, "report-1", "first");
    commit(Mutation.records(List.of(RecordWrite.create(report))));
    IdempotencyClaim claim = claim(scope("k-1"), "second", T0);
    StoredRecord review = record(RecordKind.REVIEW, "ws-1", "review-1", "recorded", cursor);
    CommitResult result =
        commit(
            Mutation.of(
                    append("ws-1", cursor),
                    List.of(
                        RecordWrite.put(review),
                        RecordWrite.create(
                            global(RecordKind.OUTCOME_REPORT, "report-1", "second"))))
                .claiming(claim));
    assertEquals(Outcome.CONFLICT, result.outcome());
    assertNothingWrittenAfterGenesis("ws-1", cursor);
    assertEquals(
        report, stores.records().find(RecordKind.OUTCOME_REPORT, "report-1").orElseThrow());
    assertTrue(stores.idempotency().find(claim.scope(), T0.minusSeconds(1)).isEmpty());
  }

  @DisplayName(
      "STORE-IDEM-1: a taken key writes nothing and answers the first response byte for byte")
  @Test
  void aTakenKeyWritesNothingAndAnswersTheFirstResponseByteForByte() {
    ChainCursor cursor = create("ws-1");
    IdempotencyClaim first = claim(scope("k-1"), "first", T0);
    assertEquals(Outcome.COMMITTED, commit(Mutation.records(List.of()).claiming(first)).outcome());
    StoredRecord review = record(RecordKind.REVIEW, "ws-1", "review-1", "recorded", cursor);
    CommitResult result =
        commit(
            Mutation.of(append("ws-1", cursor), List.of(RecordWrite.put(review)))
                .claiming(claim(scope("k-1"), "second", T0.plusSeconds(1))));
    assertEquals(Outcome.KEY_TAKEN, result.outcome());
    assertSameEntry(first.entry(), result.firstResponse().orElseThrow());
    assertNothingWrittenAfterGenesis("ws-1", cursor);
  }

  @DisplayName("STORE-IDEM-2: concurrent claims of one key have one effect and one answer")
  @Test
  void concurrentClaimsOfOneKeyHaveOneEffectAndOneAnswer() throws Exception {
    for (int i = 0; i < WRITERS; i++) {
      create("ws-" + i);
    }
    List<Callable<CommitResult>> tasks = new ArrayList<>();
    for (int i = 0; i < WRITERS; i++) {
      HostStores handle = handle(i);
      String ws = "ws-" + i;
      ChainCursor at = cursor(ws);
      IdempotencyClaim claim = claim(scope("k-race"), "writer-" + i, T0);
      tasks.add(() -> handle.commit(Mutation.of(append(ws, at), List.of()).claiming(claim)));
    }
    List<CommitResult> results = together(tasks);
    List<Integer> winners = new ArrayList<>();
    for (int i = 0; i < WRITERS; i++) {
      if (results.get(i).outcome() == Outcome.COMMITTED) {
        winners.add(i);
      }
    }
    assertEquals(1, winners.size(), results::toString);
    int winner = winners.get(0);
    IdempotencyStore.Entry stored =
        other.idempotency().find(scope("k-race"), T0.minusSeconds(1)).orElseThrow();
    assertSameEntry(claim(scope("k-race"), "writer-" + winner, T0).entry(), stored);
    for (int i = 0; i < WRITERS; i++) {
      int events = stores.sessions().events("ws-" + i).size();
      if (i == winner) {
        assertEquals(2, events);
      } else {
        assertEquals(Outcome.KEY_TAKEN, results.get(i).outcome());
        assertSameEntry(stored, results.get(i).firstResponse().orElseThrow());
        assertEquals(1, events, "the loser ws-" + i + " appended nothing");
      }
    }
  }

  // --- retention ---

  @DisplayName("STORE-RETAIN-1: an expired record is not found and its key can be claimed again")
  @Test
  void anExpiredRecordIsNotFoundAndItsKeyCanBeClaimedAgain() {
    IdempotencyClaim old = claim(scope("k-1"), "old", T0);
    commit(Mutation.records(List.of()).claiming(old));
    Instant later = T0.plusSeconds(7200);
    assertTrue(stores.idempotency().find(scope("k-1"), T0).isPresent());
    assertTrue(stores.idempotency().find(scope("k-1"), T0.plusMillis(1)).isEmpty());
    IdempotencyClaim fresh = claim(scope("k-1"), "fresh", later);
    assertEquals(Outcome.COMMITTED, commit(Mutation.records(List.of()).claiming(fresh)).outcome());
    assertSameEntry(
        fresh.entry(), other.idempotency().find(scope("k-1"), later.minusSeconds(1)).orElseThrow());
  }

  @DisplayName("STORE-RETAIN-2: delete expired removes only expired records in batches")
  @Test
  void deleteExpiredRemovesOnlyExpiredRecordsInBatches() {
    for (int i = 0; i < 5; i++) {
      commit(Mutation.records(List.of()).claiming(claim(scope("old-" + i), "old", T0)));
    }
    Instant later = T0.plusSeconds(60);
    commit(Mutation.records(List.of()).claiming(claim(scope("live"), "live", later)));
    assertEquals(2, stores.idempotency().deleteExpired(later, 2));
    assertEquals(3, other.idempotency().deleteExpired(later, 100));
    assertEquals(0, stores.idempotency().deleteExpired(later, 100));
    assertTrue(stores.idempotency().find(scope("live"), later).isPresent());
    for (int i = 0; i < 5; i++) {
      assertTrue(stores.idempotency().find(scope("old-" + i), T0).isEmpty());
    }
  }

  // --- isolation and queries ---

  @DisplayName("STORE-ISOLATE-1: records of two WorkSessions never see or replace each other")
  @Test
  void recordsOfTwoWorkSessionsNeverSeeOrReplaceEachOther() {
    ChainCursor a = create("ws-a");
    ChainCursor b = create("ws-b");
    StoredRecord inA = record(RecordKind.REQUEST, "ws-a", "req-a", "pending", a);
    StoredRecord inB = record(RecordKind.REQUEST, "ws-b", "req-b", "approved", b);
    commit(Mutation.records(List.of(RecordWrite.put(inA))));
    commit(Mutation.records(List.of(RecordWrite.put(inB))));
    assertEquals(inA, stores.records().find(RecordKind.REQUEST, "ws-a", "req-a").orElseThrow());
    assertTrue(stores.records().find(RecordKind.REQUEST, "ws-a", "req-b").isEmpty());
    assertTrue(stores.records().find(RecordKind.REQUEST, "ws-b", "req-a").isEmpty());
    assertEquals(List.of(inA), stores.records().inSession(RecordKind.REQUEST, "ws-a"));
    assertEquals(
        List.of(inA),
        stores.records().inSession(RecordKind.REQUEST, "ws-a", Set.of("pending", "approved")));
    assertTrue(stores.records().find(RecordKind.REQUEST, "req-a").isEmpty(), "not a global record");
    assertEquals(
        Outcome.COMMITTED,
        commit(
                Mutation.records(
                    List.of(RecordWrite.create(global(RecordKind.ACTOR, "req-a", "x")))))
            .outcome(),
        "a record outside WorkSessions has its own space");
  }

  // --- per-principal counts (HostConfig's PrincipalLimits) ---

  private ChainCursor createBy(String workSessionId, String creator) {
    ChainWrite.Genesis genesis = genesis(workSessionId);
    genesis.session().snapshot().put("created_by_actor_id", creator);
    assertEquals(Outcome.COMMITTED, commit(Mutation.of(genesis, List.of())).outcome());
    return cursorAfter(genesis.firstEvent());
  }

  private void moveTo(String workSessionId, String creator, String status) {
    ChainWrite.Append append = append(workSessionId, cursor(workSessionId));
    append.updated().snapshot().put("created_by_actor_id", creator).put("status", status);
    assertEquals(Outcome.COMMITTED, commit(Mutation.of(append, List.of())).outcome());
  }

  @DisplayName(
      "STORE-COUNT-1: an Actor's WorkSessions are counted by creator and current status on every instance")
  @Test
  void anActorsWorkSessionsAreCountedByCreatorAndCurrentStatusOnEveryInstance() {
    Set<String> open = Set.of("active", "waiting_on_human", "takeover", "reconciling");
    createBy("ws-a", "actor-1");
    createBy("ws-b", "actor-1");
    createBy("ws-c", "actor-1");
    createBy("ws-d", "actor-2");
    moveTo("ws-b", "actor-1", "completed");
    moveTo("ws-c", "actor-1", "waiting_on_human");
    for (HostStores handle : List.of(stores, other)) {
      assertEquals(2, handle.sessions().countCreatedBy("actor-1", open));
      assertEquals(1, handle.sessions().countCreatedBy("actor-1", Set.of("completed")));
      assertEquals(1, handle.sessions().countCreatedBy("actor-2", open));
      assertEquals(0, handle.sessions().countCreatedBy("actor-3", open));
      assertEquals(0, handle.sessions().countCreatedBy("actor-1", Set.of()));
    }
  }

  private static StoredRecord requestFor(
      String workSessionId, String id, String target, String status, ChainCursor at) {
    StoredRecord plain = record(RecordKind.REQUEST, workSessionId, id, status, at);
    ((com.fasterxml.jackson.databind.node.ObjectNode) plain.body())
        .put("target_human_worker_id", target);
    return plain;
  }

  @DisplayName(
      "STORE-COUNT-2: requests waiting on one human are found across WorkSessions by target and current status")
  @Test
  void requestsWaitingOnOneHumanAreFoundAcrossWorkSessionsByTargetAndCurrentStatus() {
    ChainCursor a = create("ws-a");
    ChainCursor b = create("ws-b");
    commit(
        Mutation.records(
            List.of(
                RecordWrite.put(requestFor("ws-a", "req-1", "human-1", "pending", a)),
                RecordWrite.put(requestFor("ws-b", "req-2", "human-1", "acknowledged", b)),
                RecordWrite.put(requestFor("ws-b", "req-3", "human-1", "approved", b)),
                RecordWrite.put(requestFor("ws-a", "req-4", "human-2", "pending", a)),
                RecordWrite.put(requestFor("ws-b", "req-5", "human-1", "pending", b)))));
    Set<String> open = Set.of("pending", "acknowledged");
    for (HostStores handle : List.of(stores, other)) {
      assertEquals(
          List.of("req-1", "req-2", "req-5"),
          ids(handle.records().requestsTargeting("human-1", open)));
      assertEquals(List.of("req-4"), ids(handle.records().requestsTargeting("human-2", open)));
      assertEquals(List.of(), handle.records().requestsTargeting("human-3", open));
    }
    commit(
        Mutation.records(
            List.of(RecordWrite.put(requestFor("ws-a", "req-1", "human-1", "expired", a)))));
    assertEquals(
        List.of("req-2", "req-5"), ids(other.records().requestsTargeting("human-1", open)));
    assertEquals(
        requestFor("ws-b", "req-5", "human-1", "pending", b),
        other.records().requestsTargeting("human-1", Set.of("pending")).get(0),
        "a record comes back as it was written");
  }

  // --- a human's inbox (the request-inbox read) ---

  private static List<String> inboxIds(List<dev.jarvis.host.InboxEntry> entries) {
    return entries.stream().map(e -> e.request().id()).toList();
  }

  @DisplayName(
      "STORE-INBOX-1: a human's inbox pages its Requests across WorkSessions by status in write order")
  @Test
  void aHumansInboxPagesItsRequestsAcrossWorkSessionsByStatusInWriteOrder() {
    ChainCursor a = create("ws-a");
    ChainCursor b = create("ws-b");
    commit(
        Mutation.records(
            List.of(
                RecordWrite.put(requestFor("ws-a", "req-1", "human-1", "pending", a)),
                RecordWrite.put(requestFor("ws-b", "req-2", "human-1", "acknowledged", b)),
                RecordWrite.put(requestFor("ws-b", "req-3", "human-1", "approved", b)),
                // Look-alike targets are other humans: exact comparison only.
                RecordWrite.put(requestFor("ws-a", "req-4", "human-1 ", "pending", a)),
                RecordWrite.put(requestFor("ws-a", "req-5", "Human-1", "pending", a)),
                RecordWrite.put(requestFor("ws-b", "req-6", "human-2", "pending", b)))));
    commit(
        Mutation.records(
            List.of(RecordWrite.put(requestFor("ws-a", "req-7", "human-1", "pending", a)))));
    commit(
        Mutation.records(
            List.of(RecordWrite.put(requestFor("ws-b", "req-8", "human-1", "pending", b)))));
    Set<String> pending = Set.of("pending");
    for (HostStores handle : List.of(stores, other)) {
      List<dev.jarvis.host.InboxEntry> all = handle.records().inbox("human-1", pending, 0, 10);
      assertEquals(List.of("req-1", "req-7", "req-8"), inboxIds(all), "pending, in write order");
      for (int i = 1; i < all.size(); i++) {
        assertTrue(
            all.get(i - 1).position() < all.get(i).position(), "positions grow in write order");
      }
      assertEquals(
          List.of("req-1", "req-2", "req-7", "req-8"),
          inboxIds(handle.records().inbox("human-1", Set.of("pending", "acknowledged"), 0, 10)),
          "statuses merged by position");
      assertEquals(
          List.of("req-1", "req-7"), inboxIds(handle.records().inbox("human-1", pending, 0, 2)));
      assertEquals(
          List.of("req-8"),
          inboxIds(handle.records().inbox("human-1", pending, all.get(1).position(), 10)),
          "a page starts after the cursor");
      assertEquals(
          List.of(),
          handle.records().inbox("human-1", pending, all.get(2).position(), 10),
          "nothing after the last");
      assertEquals(List.of("req-6"), inboxIds(handle.records().inbox("human-2", pending, 0, 10)));
      assertEquals(List.of(), handle.records().inbox("human-3", pending, 0, 10));
      assertEquals(List.of(), handle.records().inbox("human-1", Set.of(), 0, 10));
      assertEquals(
          requestFor("ws-a", "req-7", "human-1", "pending", a),
          all.get(1).request(),
          "a record comes back as it was written");
    }
    long position = stores.records().inbox("human-1", pending, 0, 10).get(0).position();
    commit(
        Mutation.records(
            List.of(RecordWrite.put(requestFor("ws-a", "req-1", "human-1", "approved", a)))));
    assertEquals(
        List.of("req-7", "req-8"),
        inboxIds(other.records().inbox("human-1", pending, 0, 10)),
        "a Request that changed status leaves the status it had");
    List<dev.jarvis.host.InboxEntry> approved =
        other.records().inbox("human-1", Set.of("approved"), 0, 10);
    assertEquals(List.of("req-1", "req-3"), inboxIds(approved));
    assertEquals(
        position, approved.get(0).position(), "a Request keeps its position when it changes");
  }

  private static StoredRecord requestExpiring(
      String workSessionId, String id, String status, String expiresAt, ChainCursor at) {
    StoredRecord plain = record(RecordKind.REQUEST, workSessionId, id, status, at);
    ((com.fasterxml.jackson.databind.node.ObjectNode) plain.body()).put("expires_at", expiresAt);
    return plain;
  }

  @DisplayName(
      "STORE-EXPIRY-1: open Requests past their expiry are found across WorkSessions earliest first")
  @Test
  void openRequestsPastTheirExpiryAreFoundAcrossWorkSessionsEarliestFirst() {
    ChainCursor a = create("ws-a");
    ChainCursor b = create("ws-b");
    ChainCursor c = create("ws-c");
    ChainCursor d = create("ws-d");
    commit(
        Mutation.records(
            List.of(
                RecordWrite.put(
                    requestExpiring("ws-a", "req-1", "pending", "2026-06-12T18:05:00Z", a)),
                // 17:00 UTC, the earliest: an offset is read as the instant it names.
                RecordWrite.put(
                    requestExpiring(
                        "ws-b", "req-2", "acknowledged", "2026-06-12T19:00:00+02:00", b)),
                RecordWrite.put(
                    requestExpiring("ws-b", "req-3", "approved", "2026-06-12T16:00:00Z", b)),
                RecordWrite.put(
                    requestExpiring("ws-a", "req-4", "pending", "2026-06-12T18:20:00Z", a)),
                RecordWrite.put(
                    requestExpiring("ws-c", "req-5", "pending", "2026-06-12t18:01:00z", c)),
                RecordWrite.put(
                    requestExpiring("ws-d", "req-6", "pending", "2026-06-12T17:30:00.5Z", d)))));
    moveTo("ws-d", "actor-1", "completed");
    Set<String> live = Set.of("active", "waiting_on_human", "takeover", "reconciling");
    Instant now = Instant.parse("2026-06-12T18:10:00Z");
    for (HostStores handle : List.of(stores, other)) {
      assertEquals(
          List.of("req-2", "req-5", "req-1"),
          ids(handle.records().requestsDue(now, live, 10)),
          "open, due, of a WorkSession that takes events; earliest first");
      assertEquals(List.of("req-2", "req-5"), ids(handle.records().requestsDue(now, live, 2)));
      assertEquals(
          List.of("req-2", "req-5", "req-1"),
          ids(handle.records().requestsDue(Instant.parse("2026-06-12T18:05:00Z"), live, 10)),
          "due at its expires_at itself");
      assertEquals(
          List.of(), handle.records().requestsDue(Instant.parse("2026-06-12T16:59:59Z"), live, 10));
      assertEquals(
          List.of("req-6"),
          ids(handle.records().requestsDue(now, Set.of("completed"), 10)),
          "the WorkSession statuses asked for decide whose Requests are found");
    }
    commit(
        Mutation.records(
            List.of(
                RecordWrite.put(
                    requestExpiring("ws-b", "req-2", "expired", "2026-06-12T19:00:00+02:00", b)))));
    assertEquals(List.of("req-5", "req-1"), ids(other.records().requestsDue(now, live, 10)));
    assertEquals(
        Outcome.COMMITTED,
        commit(Mutation.of(new ChainWrite.Seal("ws-c", cursor("ws-c")), List.of())).outcome());
    assertEquals(
        List.of("req-1"),
        ids(other.records().requestsDue(now, live, 10)),
        "a sealed WorkSession takes no expiry event");
    assertEquals(
        requestExpiring("ws-a", "req-1", "pending", "2026-06-12T18:05:00Z", a),
        other.records().requestsDue(now, live, 10).get(0),
        "a record comes back as it was written");
  }

  // --- host-wide ids ---

  @DisplayName("STORE-ID-1: an id another WorkSession holds makes the whole mutation a conflict")
  @Test
  void anIdAnotherWorkSessionHoldsMakesTheWholeMutationAConflict() {
    ChainCursor a = create("ws-a");
    ChainCursor b = create("ws-b");
    StoredRecord inA = record(RecordKind.REQUEST, "ws-a", "req-1", "pending", a);
    commit(Mutation.records(List.of(RecordWrite.put(inA))));
    IdempotencyClaim claim = claim(scope("k-reuse"), "reuse", T0);
    CommitResult result =
        other.commit(
            Mutation.of(
                    append("ws-b", b, "writer:0"),
                    List.of(
                        RecordWrite.put(record(RecordKind.REVIEW, "ws-b", "review-1", "x", b)),
                        RecordWrite.put(record(RecordKind.REQUEST, "ws-b", "req-1", "pending", b))))
                .claiming(claim));
    assertEquals(Outcome.CONFLICT, result.outcome());
    assertNothingWrittenAfterGenesis("ws-b", b);
    assertTrue(stores.records().find(RecordKind.REQUEST, "ws-b", "req-1").isEmpty());
    assertTrue(stores.idempotency().find(claim.scope(), T0.minusSeconds(1)).isEmpty());
    assertEquals(
        inA, stores.records().findInAnyWorkSession(RecordKind.REQUEST, "req-1").orElseThrow());
    StoredRecord resolved = record(RecordKind.REQUEST, "ws-a", "req-1", "approved", a);
    assertEquals(
        Outcome.COMMITTED,
        other.commit(Mutation.records(List.of(RecordWrite.put(resolved)))).outcome(),
        "the WorkSession holding the id updates its record");
    assertEquals(
        Outcome.COMMITTED,
        commit(
                Mutation.records(
                    List.of(RecordWrite.put(record(RecordKind.REVIEW, "ws-b", "req-1", "x", b)))))
            .outcome(),
        "another kind is another id");
  }

  @DisplayName("STORE-ID-2: concurrent records of one id in many WorkSessions have one winner")
  @Test
  void concurrentRecordsOfOneIdInManyWorkSessionsHaveOneWinner() throws Exception {
    for (int i = 0; i < WRITERS; i++) {
      create("ws-" + i);
    }
    for (int round = 0; round < ID_RACE_ROUNDS; round++) {
      String id = "pd-race-" + round;
      List<ChainCursor> before = new ArrayList<>();
      List<Callable<Outcome>> tasks = new ArrayList<>();
      for (int i = 0; i < WRITERS; i++) {
        HostStores handle = handle(i);
        String ws = "ws-" + i;
        ChainCursor at = cursor(ws);
        before.add(at);
        ChainWrite.Append write = append(ws, at);
        StoredRecord decision =
            record(RecordKind.POLICY_DECISION, ws, id, "", cursorAfter(write.event()));
        IdempotencyClaim claim = claim(scope("k-" + id + "-" + i), "writer-" + i, T0);
        tasks.add(
            () ->
                handle
                    .commit(Mutation.of(write, List.of(RecordWrite.put(decision))).claiming(claim))
                    .outcome());
      }
      List<Outcome> outcomes = together(tasks);
      List<Integer> winners = new ArrayList<>();
      for (int i = 0; i < WRITERS; i++) {
        if (outcomes.get(i) == Outcome.COMMITTED) {
          winners.add(i);
        } else {
          assertEquals(Outcome.CONFLICT, outcomes.get(i), outcomes::toString);
        }
      }
      assertEquals(1, winners.size(), "round " + round + ": " + outcomes);
      String winner = "ws-" + winners.get(0);
      for (int i = 0; i < WRITERS; i++) {
        String ws = "ws-" + i;
        boolean won = ws.equals(winner);
        assertEquals(won, !cursor(ws).equals(before.get(i)), ws + " moved on only if it won");
        assertEquals(won, other.records().find(RecordKind.POLICY_DECISION, ws, id).isPresent(), ws);
        assertEquals(
            won,
            other.idempotency().find(scope("k-" + id + "-" + i), T0.minusSeconds(1)).isPresent(),
            ws + " claimed its key only if it won");
      }
      assertEquals(
          Optional.of(winner),
          stores
              .records()
              .findInAnyWorkSession(RecordKind.POLICY_DECISION, id)
              .orElseThrow()
              .workSessionId());
    }
  }

  @DisplayName(
      "STORE-ID-3: host instances racing one id in many WorkSessions give one winner and the losers the id's refusal")
  @ParameterizedTest(name = "STORE-ID-3 racing a {0} id")
  @EnumSource(ProtocolHostPair.Raced.class)
  void hostInstancesRacingOneIdInManyWorkSessionsGiveOneWinnerAndTheLosersTheIdsRefusal(
      ProtocolHostPair.Raced raced) throws Exception {
    assumeApplies(StoreRule.ID_3);
    ProtocolHostPair.race(raced, stores, other, pool, WRITERS, ID_RACE_ROUNDS);
  }

  @Test
  @DisplayName("STORE-INSTANCE-1: a second instance sees every committed write of the first")
  void aSecondInstanceSeesEveryCommittedWriteOfTheFirst() {
    assumeApplies(StoreRule.INSTANCE_1);
    ChainCursor cursor = create("ws-1");
    ChainWrite.Append write = append("ws-1", cursor);
    ChainCursor next = cursorAfter(write.event());
    StoredRecord review = record(RecordKind.REVIEW, "ws-1", "review-1", "recorded", next);
    IdempotencyClaim claim = claim(scope("k-1"), "first", T0);
    assertEquals(
        Outcome.COMMITTED,
        commit(Mutation.of(write, List.of(RecordWrite.put(review))).claiming(claim)).outcome());
    assertEquals(next, other.sessions().find("ws-1").orElseThrow().cursor());
    assertEquals(2, other.sessions().events("ws-1").size());
    assertEquals(review, other.records().find(RecordKind.REVIEW, "ws-1", "review-1").orElseThrow());
    assertSameEntry(
        claim.entry(), other.idempotency().find(claim.scope(), T0.minusSeconds(1)).orElseThrow());
    // And back: the first instance sees what the second commits.
    ChainWrite.Append second = append("ws-1", next);
    assertEquals(Outcome.COMMITTED, other.commit(Mutation.of(second, List.of())).outcome());
    assertEquals(cursorAfter(second.event()), cursor("ws-1"));
  }

  @DisplayName(
      "STORE-SWEEP-1: host instances sweeping Request expiries together write each expiry once")
  @Test
  void hostInstancesSweepingRequestExpiriesTogetherWriteEachExpiryOnce() throws Exception {
    assumeApplies(StoreRule.SWEEP_1);
    ProtocolHostPair.sweepTogether(stores, other, pool, WRITERS);
  }

  @DisplayName("STORE-QUERY-1: the WorkSession holding a kind and id is one indexed query")
  @Test
  void theWorkSessionHoldingAKindAndIdIsOneIndexedQuery() {
    ChainCursor a = create("ws-a");
    ChainCursor b = create("ws-b");
    assertTrue(stores.records().findInAnyWorkSession(RecordKind.REQUEST, "req-1").isEmpty());
    StoredRecord pending = record(RecordKind.REQUEST, "ws-b", "req-1", "pending", b);
    commit(Mutation.records(List.of(RecordWrite.create(pending))));
    assertEquals(
        pending,
        other.records().findInAnyWorkSession(RecordKind.REQUEST, "req-1").orElseThrow(),
        "another instance sees which WorkSession holds the id");
    StoredRecord approved = record(RecordKind.REQUEST, "ws-b", "req-1", "approved", b);
    commit(Mutation.records(List.of(RecordWrite.put(approved))));
    assertEquals(
        approved, stores.records().findInAnyWorkSession(RecordKind.REQUEST, "req-1").orElseThrow());
    assertEquals(
        Outcome.CONFLICT,
        commit(
                Mutation.records(
                    List.of(
                        RecordWrite.put(
                            record(RecordKind.REQUEST, "ws-a", "req-1", "pending", a)))))
            .outcome(),
        "ids of WorkSession records are host-wide");
    assertEquals(
        Optional.of("ws-b"),
        stores
            .records()
            .findInAnyWorkSession(RecordKind.REQUEST, "req-1")
            .orElseThrow()
            .workSessionId(),
        "the WorkSession holding the id answers");
    assertTrue(
        stores.records().findInAnyWorkSession(RecordKind.REVIEW, "req-1").isEmpty(),
        "another kind is another id");
    stores.seed(global(RecordKind.ACTOR, "actor-1", "outside"));
    assertTrue(
        stores.records().findInAnyWorkSession(RecordKind.ACTOR, "actor-1").isEmpty(),
        "records outside WorkSessions are not among them");
  }

  @DisplayName("STORE-QUERY-2: events and citations belong to their WorkSession")
  @Test
  void eventsAndCitationsBelongToTheirWorkSession() {
    ChainCursor a = create("ws-a");
    create("ws-b");
    ChainWrite.Append cite = append("ws-a", a, "policy_decision:pd-1", "other:1");
    commit(Mutation.of(cite, List.of()));
    ChainWrite.Append again = append("ws-a", cursorAfter(cite.event()), "policy_decision:pd-1");
    commit(Mutation.of(again, List.of()));
    assertEquals(2, stores.sessions().countCiting("ws-a", "policy_decision:pd-1"));
    assertEquals(1, stores.sessions().countCiting("ws-a", "other:1"));
    assertEquals(0, stores.sessions().countCiting("ws-b", "policy_decision:pd-1"));
    String eventId = cite.event().path("id").asText();
    assertSameJson(cite.event(), stores.sessions().event("ws-a", eventId).orElseThrow());
    assertTrue(stores.sessions().event("ws-b", eventId).isEmpty());
    assertTrue(stores.sessions().event("ws-a", "no-such-event").isEmpty());
    assertEquals(1, stores.sessions().events("ws-b").size());
  }

  @DisplayName("STORE-QUERY-3: records of a WorkSession come in first write order and by status")
  @Test
  void recordsOfAWorkSessionComeInFirstWriteOrderAndByStatus() {
    ChainCursor at = create("ws-1");
    List<RecordWrite> writes = new ArrayList<>();
    for (String id : List.of("req-c", "req-a", "req-b")) {
      writes.add(RecordWrite.put(record(RecordKind.REQUEST, "ws-1", id, "pending", at)));
    }
    commit(Mutation.records(writes));
    StoredRecord resolved = record(RecordKind.REQUEST, "ws-1", "req-c", "approved", at);
    commit(Mutation.records(List.of(RecordWrite.put(resolved))));
    assertEquals(
        List.of("req-c", "req-a", "req-b"),
        ids(stores.records().inSession(RecordKind.REQUEST, "ws-1")));
    assertEquals(
        List.of("req-a", "req-b"),
        ids(stores.records().inSession(RecordKind.REQUEST, "ws-1", Set.of("pending"))));
    assertEquals(
        resolved, stores.records().find(RecordKind.REQUEST, "ws-1", "req-c").orElseThrow());
    assertTrue(stores.records().inSession(RecordKind.REVIEW, "ws-1").isEmpty());
  }

  @DisplayName(
      "STORE-QUERY-4: a WorkSession is read with its records of the asked statuses in first write order")
  @Test
  void aWorkSessionIsReadWithItsRecordsOfTheAskedStatusesInFirstWriteOrder() {
    ChainCursor at = create("ws-1");
    ChainCursor sealedAt = create("ws-2");
    List<RecordWrite> writes = new ArrayList<>();
    for (String id : List.of("req-c", "req-a", "req-b")) {
      writes.add(RecordWrite.put(record(RecordKind.REQUEST, "ws-1", id, "pending", at)));
    }
    writes.add(RecordWrite.put(record(RecordKind.REQUEST, "ws-1", "req-d", "acknowledged", at)));
    writes.add(RecordWrite.put(record(RecordKind.REVIEW, "ws-1", "rev-1", "pending", at)));
    writes.add(RecordWrite.put(record(RecordKind.REQUEST, "ws-2", "req-e", "pending", sealedAt)));
    commit(Mutation.records(writes));
    StoredRecord resolved = record(RecordKind.REQUEST, "ws-1", "req-c", "approved", at);
    commit(Mutation.records(List.of(RecordWrite.put(resolved))));
    assertEquals(
        Outcome.COMMITTED,
        commit(Mutation.of(new ChainWrite.Seal("ws-2", sealedAt), List.of())).outcome());
    Set<String> open = Set.of("pending", "acknowledged");

    SessionWithRecords found =
        other.findWithRecords("ws-1", RecordKind.REQUEST, open).orElseThrow();
    assertEquals(stores.sessions().find("ws-1").orElseThrow(), found.session());
    assertEquals(List.of("req-a", "req-b", "req-d"), ids(found.records()));
    assertEquals(stores.records().inSession(RecordKind.REQUEST, "ws-1", open), found.records());

    SessionWithRecords sealed =
        other.findWithRecords("ws-2", RecordKind.REQUEST, Set.of("approved")).orElseThrow();
    assertTrue(sealed.session().sealed());
    assertTrue(sealed.records().isEmpty());
    assertTrue(
        other
            .findWithRecords("ws-1", RecordKind.REQUEST, Set.of())
            .orElseThrow()
            .records()
            .isEmpty());
    assertTrue(other.findWithRecords("ws-none", RecordKind.REQUEST, open).isEmpty());
  }

  @DisplayName(
      "STORE-QUERY-5: a WorkSession is read with which of the asked event ids its chain holds")
  @Test
  void aWorkSessionIsReadWithWhichOfTheAskedEventIdsItsChainHolds() {
    ChainCursor a = create("ws-a");
    create("ws-b");
    ChainWrite.Append appended = append("ws-a", a);
    commit(Mutation.of(appended, List.of()));
    String held = appended.event().path("id").asText();

    SessionWithRecords found =
        other
            .findWithRecords(
                "ws-a", RecordKind.REQUEST, Set.of("pending"), Set.of(held, "no-such-event"))
            .orElseThrow();
    assertEquals(stores.sessions().find("ws-a").orElseThrow(), found.session());
    assertEquals(Set.of(held), found.heldEventIds());
    assertTrue(
        other
            .findWithRecords("ws-b", RecordKind.REQUEST, Set.of("pending"), Set.of(held))
            .orElseThrow()
            .heldEventIds()
            .isEmpty(),
        "an event of another WorkSession");
    assertTrue(
        other
            .findWithRecords("ws-a", RecordKind.REQUEST, Set.of("pending"))
            .orElseThrow()
            .heldEventIds()
            .isEmpty(),
        "none asked");
    assertTrue(
        other.findWithRecords("ws-none", RecordKind.REQUEST, Set.of(), Set.of(held)).isEmpty());
  }

  @DisplayName("STORE-QUERY-6: an Actor is read with the Worker it names")
  @Test
  void anActorIsReadWithTheWorkerItNames() {
    StoredRecord worker = global(RecordKind.WORKER, "worker-1", "w");
    StoredRecord actor =
        StoredRecord.global(
            RecordKind.ACTOR,
            "actor-1",
            JSON.objectNode().put("actor_id", "actor-1").put("worker_id", "worker-1"));
    StoredRecord orphan =
        StoredRecord.global(
            RecordKind.ACTOR,
            "actor-2",
            JSON.objectNode().put("actor_id", "actor-2").put("worker_id", "worker-2"));
    stores.seed(worker);
    stores.seed(actor);
    stores.seed(orphan);
    // An Actor of a WorkSession of the same id is no registered Actor.
    ChainCursor at = create("ws-1");
    commit(
        Mutation.records(
            List.of(RecordWrite.put(record(RecordKind.ACTOR, "ws-1", "actor-3", "x", at)))));

    assertEquals(
        new ActorWithWorker(actor, Optional.of(worker)),
        other.records().actorWithWorker("actor-1").orElseThrow());
    assertEquals(
        new ActorWithWorker(orphan, Optional.empty()),
        other.records().actorWithWorker("actor-2").orElseThrow());
    assertTrue(other.records().actorWithWorker("actor-3").isEmpty());
    assertTrue(other.records().actorWithWorker("worker-1").isEmpty(), "a Worker is no Actor");
  }

  private static StoredRecord actorOf(String actorId, String workerId) {
    return StoredRecord.global(
        RecordKind.ACTOR,
        actorId,
        JSON.objectNode().put("actor_id", actorId).put("worker_id", workerId));
  }

  @DisplayName("STORE-QUERY-7: the Actors of a Worker are found by the Worker they name now")
  @Test
  void theActorsOfAWorkerAreFoundByTheWorkerTheyNameNow() {
    stores.seed(actorOf("actor-1", "worker-1"));
    stores.seed(actorOf("actor-2", "worker-2"));
    stores.seed(actorOf("actor-3", "worker-1"));
    stores.seed(global(RecordKind.WORKER, "worker-1", "w"));
    // An Actor of a WorkSession of the same Worker is no registered Actor.
    ChainCursor at = create("ws-1");
    StoredRecord inSession = record(RecordKind.ACTOR, "ws-1", "actor-4", "x", at);
    ((com.fasterxml.jackson.databind.node.ObjectNode) inSession.body())
        .put("worker_id", "worker-1");
    commit(Mutation.records(List.of(RecordWrite.put(inSession))));
    for (HostStores handle : List.of(stores, other)) {
      assertEquals(List.of("actor-1", "actor-3"), ids(handle.records().actorsOf("worker-1")));
      assertEquals(List.of("actor-2"), ids(handle.records().actorsOf("worker-2")));
      assertEquals(List.of(), handle.records().actorsOf("worker-3"));
    }
    // Registered again under another Worker, an Actor is that Worker's alone.
    stores.seed(actorOf("actor-1", "worker-2"));
    assertEquals(List.of("actor-3"), ids(other.records().actorsOf("worker-1")));
    assertEquals(List.of("actor-1", "actor-2"), sorted(ids(other.records().actorsOf("worker-2"))));
    assertEquals(actorOf("actor-3", "worker-1"), other.records().actorsOf("worker-1").get(0));
  }

  private static List<String> sorted(List<String> ids) {
    return ids.stream().sorted().toList();
  }

  @DisplayName("STORE-RECORD-1: records outside WorkSessions are replaced by a put")
  @Test
  void recordsOutsideWorkSessionsAreReplacedByAPut() {
    StoredRecord first = global(RecordKind.ACTOR, "actor-1", "first");
    StoredRecord second = global(RecordKind.ACTOR, "actor-1", "second");
    stores.seed(first);
    stores.seed(second);
    assertEquals(second, other.records().find(RecordKind.ACTOR, "actor-1").orElseThrow());
    assertEquals(second.body(), other.records().body(RecordKind.ACTOR, "actor-1").orElseThrow());
    assertTrue(other.records().find(RecordKind.WORKER, "actor-1").isEmpty());
  }

  // --- fidelity ---

  @DisplayName("STORE-FIDELITY-1: stored JSON comes back as it went")
  @Test
  void storedJsonComesBackAsItWent() throws Exception {
    // Parsed by the host's own wire mapping, as every stored tree is.
    JsonNode body =
        JarvisJson.mapper()
            .readTree(
                "{\"id\":\"rec-1\",\"text\":\"ünïcødé ✓ \\ud834\\udd1e \\\"q\\\" \\\\ \\n\\t\","
                    + "\"integer\":9007199254740993,\"big\":123456789012345678901234567890,"
                    + "\"decimal\":0.1,\"exponent\":1e-7,\"flag\":true,\"nothing\":null,"
                    + "\"empty\":[],\"nested\":{\"list\":[1,\"two\",{\"three\":3.5}]}}");
    StoredRecord record =
        StoredRecord.inSession(RecordKind.LEARNING_RECORD, "rec-1", "ws-1", body)
            .recordedAt(new ChainCursor(7, "sha256:" + "a".repeat(64)));
    commit(Mutation.records(List.of(RecordWrite.put(record))));
    assertEquals(
        record, other.records().find(RecordKind.LEARNING_RECORD, "ws-1", "rec-1").orElseThrow());
    StoredRecord unanchored = global(RecordKind.POLICY, "policy-1", "ünïcødé");
    stores.seed(unanchored);
    assertEquals(
        Optional.empty(),
        other.records().find(RecordKind.POLICY, "policy-1").orElseThrow().recordedAt());
  }

  @DisplayName("STORE-FIDELITY-2: stored responses come back byte for byte")
  @Test
  void storedResponsesComeBackByteForByte() {
    byte[] bytes = new byte[256];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) i;
    }
    StoredResponse response =
        new StoredResponse(
            200, java.util.Map.of("Jarvis-Protocol-Version", "v0.1", "X-Empty", ""), bytes);
    IdempotencyStore.Entry entry = new IdempotencyStore.Entry("sha256:bytes", response, T0);
    commit(
        Mutation.records(List.of())
            .claiming(new IdempotencyClaim(scope("k-bytes"), entry, T0.minusSeconds(1))));
    assertSameEntry(entry, other.idempotency().find(scope("k-bytes"), T0).orElseThrow());
  }

  @DisplayName(
      "STORE-FIDELITY-3: an answer that is its unit's own event comes back byte for byte and"
          + " header for header, and one that only resembles it as it went")
  @Test
  void anAnswerThatIsItsUnitsOwnEventComesBackByteForByte() {
    // What appendJarvisEvent answers: the appended event as the host writes it, and the cursor
    // after it. A store may keep it as a reference to the event it stores (the JDBC store does);
    // the replay must still be the first answer exactly, from a taken key and from a lookup.
    ChainCursor cursor = create("ws-1");
    List<StoredResponse> answers = new ArrayList<>();
    List<IdempotencyStore.Entry> entries = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      ChainWrite.Append write = append("ws-1", cursor);
      ChainCursor next = cursorAfter(write.event());
      java.util.Map<String, String> headers = new java.util.HashMap<>();
      headers.put("Content-Type", "application/json");
      headers.put("Jarvis-Protocol-Version", "v0.1");
      headers.put("Jarvis-WorkSession-Revision", Long.toString(next.revision()));
      headers.put("Jarvis-Last-Event-Hash", next.lastEventHash());
      byte[] body = eventBytes(write.event());
      if (i == 1) {
        // The event's body under a revision that is not the event's.
        headers.put("Jarvis-WorkSession-Revision", Long.toString(next.revision() + 7));
      } else if (i == 2) {
        // The event's cursor headers over a body that is the event plus one space.
        body = java.util.Arrays.copyOf(body, body.length + 1);
        body[body.length - 1] = ' ';
      }
      StoredResponse answer = new StoredResponse(201, headers, body);
      IdempotencyStore.Entry entry =
          new IdempotencyStore.Entry("sha256:event-" + i, answer, T0.plusSeconds(i));
      IdempotencyClaim claim = new IdempotencyClaim(scope("k-event-" + i), entry, T0);
      assertEquals(
          Outcome.COMMITTED, commit(Mutation.of(write, List.of()).claiming(claim)).outcome());
      cursor = next;
      answers.add(answer);
      entries.add(entry);
    }
    for (int i = 0; i < 3; i++) {
      CommitResult replay =
          commit(
              Mutation.of(append("ws-1", cursor), List.of())
                  .claiming(claim(scope("k-event-" + i), "again", T0.plusSeconds(10))));
      assertEquals(Outcome.KEY_TAKEN, replay.outcome());
      assertSameEntry(entries.get(i), replay.firstResponse().orElseThrow());
      assertSameEntry(
          entries.get(i), other.idempotency().find(scope("k-event-" + i), T0).orElseThrow());
    }
    assertEquals(cursor, cursor("ws-1"), "the replays appended nothing");
  }

  /** An event's JSON as the host writes it in an answer (its wire mapping). */
  private static byte[] eventBytes(JsonNode event) {
    try {
      return JarvisJson.mapper().writeValueAsBytes(event);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  // --- helpers ---

  private List<JsonNode> events(String workSessionId) {
    return other.sessions().events(workSessionId);
  }

  private static List<String> ids(List<StoredRecord> records) {
    return records.stream().map(StoredRecord::id).toList();
  }

  /**
   * The same JSON, numbers compared by value: a store may read {@code 2} back as another Java
   * number type than it was built with, which changes neither the canonical form nor a hash.
   */
  protected static void assertSameJson(JsonNode expected, JsonNode actual) {
    assertTrue(
        expected.equals(
            (a, b) ->
                a.equals(b)
                        || (a.isNumber()
                            && b.isNumber()
                            && a.decimalValue().compareTo(b.decimalValue()) == 0)
                    ? 0
                    : 1,
            actual),
        () -> "expected " + expected + " but was " + actual);
  }

  // --- the step inside the unit of work (CommitHook, outbox) ---

  @DisplayName("STORE-STEP-1: a step runs once inside a committed unit and sees its event")
  @Test
  void aStepRunsOnceInsideACommittedUnitAndSeesItsEvent() {
    ChainCursor cursor = create("ws-1");
    ChainWrite.Append write = append("ws-1", cursor);
    List<JsonNode> seen = new ArrayList<>();
    Mutation mutation = Mutation.of(write, List.of()).claiming(claim(scope("k-1"), "first", T0));
    CommitResult result = commit(mutation.within(unit -> seen.add(mutation.appendedEvent().get())));
    assertEquals(Outcome.COMMITTED, result.outcome());
    assertEquals(List.of(write.event()), seen);
  }

  /** Units whose condition fails: the step never runs. */
  static Stream<Arguments> unitsThatCommitNothing() {
    return Stream.of(
        Arguments.of("a genesis of an existing WorkSession", (UnitInStore) (c) -> genesis("ws-1")),
        Arguments.of(
            "an append behind the chain",
            (UnitInStore) (c) -> append("ws-1", new ChainCursor(7, c.lastEventHash()))));
  }

  /** The chain write of a unit, given the cursor after the WorkSession's genesis. */
  @FunctionalInterface
  interface UnitInStore {
    ChainWrite write(ChainCursor afterGenesis);
  }

  @DisplayName("STORE-STEP-2: a step does not run when the unit's condition fails")
  @ParameterizedTest(name = "STORE-STEP-2 {0}")
  @MethodSource("unitsThatCommitNothing")
  void aStepDoesNotRunWhenTheUnitsConditionFails(String name, UnitInStore unit) {
    ChainCursor cursor = create("ws-1");
    List<String> ran = new ArrayList<>();
    CommitResult result =
        commit(Mutation.of(unit.write(cursor), List.of()).within(u -> ran.add("ran")));
    assertEquals(Outcome.CONFLICT, result.outcome());
    assertEquals(List.of(), ran);
  }

  @DisplayName("STORE-STEP-3: a step does not run when the key is taken")
  @Test
  void aStepDoesNotRunWhenTheKeyIsTaken() {
    ChainCursor cursor = create("ws-1");
    assertEquals(
        Outcome.COMMITTED,
        commit(Mutation.records(List.of()).claiming(claim(scope("k-1"), "first", T0))).outcome());
    List<String> ran = new ArrayList<>();
    CommitResult result =
        commit(
            Mutation.of(append("ws-1", cursor), List.of())
                .claiming(claim(scope("k-1"), "second", T0.plusSeconds(1)))
                .within(u -> ran.add("ran")));
    assertEquals(Outcome.KEY_TAKEN, result.outcome());
    assertEquals(List.of(), ran);
  }

  @DisplayName("STORE-STEP-4: a failing step writes nothing of its unit")
  @Test
  void aFailingStepWritesNothingOfItsUnit() {
    ChainCursor cursor = create("ws-1");
    StoredRecord review = record(RecordKind.REVIEW, "ws-1", "review-1", "recorded", cursor);
    IdempotencyClaim claim = claim(scope("k-1"), "first", T0);
    Mutation failing =
        Mutation.of(append("ws-1", cursor, "writer:0"), List.of(RecordWrite.put(review)))
            .claiming(claim)
            .within(
                u -> {
                  throw new java.io.IOException("the outbox is full");
                });
    RuntimeException thrown =
        org.junit.jupiter.api.Assertions.assertThrows(
            RuntimeException.class, () -> commit(failing));
    assertTrue(hasCause(thrown, java.io.IOException.class), () -> "unexpected failure " + thrown);
    assertNothingWrittenAfterGenesis("ws-1", cursor);
    assertTrue(stores.idempotency().find(claim.scope(), T0.minusSeconds(1)).isEmpty());
  }

  private static boolean hasCause(Throwable thrown, Class<? extends Throwable> type) {
    for (Throwable t = thrown; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return true;
      }
    }
    return false;
  }

  private static void assertSameEntry(
      IdempotencyStore.Entry expected, IdempotencyStore.Entry actual) {
    assertEquals(expected.fingerprint(), actual.fingerprint());
    assertEquals(expected.storedAt(), actual.storedAt());
    assertEquals(expected.response().status(), actual.response().status());
    assertEquals(expected.response().headers(), actual.response().headers());
    assertArrayEquals(expected.response().body(), actual.response().body());
  }

  private void assertNothingWrittenAfterGenesis(String workSessionId, ChainCursor cursor) {
    for (HostStores handle : List.of(stores, other)) {
      StoredSession session = handle.sessions().find(workSessionId).orElseThrow();
      assertEquals(cursor, session.cursor());
      assertFalse(session.sealed());
      assertEquals(1, handle.sessions().events(workSessionId).size());
      assertTrue(handle.records().inSession(RecordKind.REVIEW, workSessionId).isEmpty());
      assertEquals(0, handle.sessions().countCiting(workSessionId, "writer:0"));
    }
  }

  // --- The notification outbox (stores that keep one) ---

  @DisplayName(
      "STORE-OUTBOX-1: a notification commits with its unit and never with a conflict or a taken key")
  @Test
  void aNotificationCommitsWithItsUnitAndNeverWithAConflictOrATakenKey() {
    assumeOutbox(StoreRule.OUTBOX_1);
    OutboxChecks.aNotificationCommitsWithItsUnitOnly(stores);
  }

  @DisplayName("STORE-OUTBOX-2: a lease keeps a notification one instance's until it runs out")
  @Test
  void aLeaseKeepsANotificationOneInstancesUntilItRunsOut() {
    assumeOutbox(StoreRule.OUTBOX_2);
    OutboxChecks.aLeaseKeepsANotificationOneInstancesUntilItRunsOut(stores, other);
  }

  @DisplayName("STORE-OUTBOX-3: dead letters are listed and never claimed again")
  @Test
  void deadLettersAreListedAndNeverClaimedAgain() {
    assumeOutbox(StoreRule.OUTBOX_3);
    OutboxChecks.deadLettersAreListedAndNeverClaimedAgain(stores);
  }

  @DisplayName("STORE-OUTBOX-4: dispatchers of two instances deliver each notification once")
  @Test
  void dispatchersOfTwoInstancesDeliverEachNotificationOnce() throws Exception {
    assumeOutbox(StoreRule.OUTBOX_4);
    OutboxChecks.dispatchersOfTwoInstancesDeliverEachNotificationOnce(stores, other, pool, WRITERS);
  }
}
