package dev.jarvis.host.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.chain.EventChain;
import dev.jarvis.host.ChainWrite;
import dev.jarvis.host.CommitResult;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.RecordKind;
import dev.jarvis.host.RecordWrite;
import dev.jarvis.host.StoreUnavailableException;
import dev.jarvis.host.StoredRecord;
import dev.jarvis.host.StoredSession;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The in-memory store locks per WorkSession: while a commit of one WorkSession is held inside the
 * store (its step waits on a latch), a commit of another WorkSession goes through, and a commit of
 * the same WorkSession waits for it (the positive control).
 */
class InMemoryStoreLocksTest {

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  // A bound on waiting for events that do happen, never a pause: a failing run ends, a passing one
  // never waits for it.
  private static final long BOUND_SECONDS = 30;

  private final InMemoryProtocolStore store = new InMemoryProtocolStore();
  private final ExecutorService threads = Executors.newCachedThreadPool();

  @AfterEach
  void stop() {
    threads.shutdownNow();
  }

  @Test
  void aCommitHeldInsideOneWorkSessionDoesNotHoldUpAnotherWorkSessionsCommits() throws Exception {
    assertEquals(CommitResult.Outcome.COMMITTED, store.commit(genesis("ws-a")).outcome());
    assertEquals(CommitResult.Outcome.COMMITTED, store.commit(genesis("ws-b")).outcome());
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Future<CommitResult> held =
        threads.submit(
            () ->
                store.commit(
                    append("ws-a")
                        .within(
                            unit -> {
                              inside.countDown();
                              release.await();
                            })));
    assertTrue(inside.await(BOUND_SECONDS, TimeUnit.SECONDS), "the held commit never ran");

    // Another WorkSession: its append commits while ws-a's commit is still inside the store.
    Future<CommitResult> other = threads.submit(() -> store.commit(append("ws-b")));
    assertEquals(
        CommitResult.Outcome.COMMITTED, other.get(BOUND_SECONDS, TimeUnit.SECONDS).outcome());
    assertEquals(2, store.events("ws-b").size());
    assertFalse(held.isDone());

    // The same WorkSession: its commit waits for the held one (positive control).
    AtomicReference<Thread> waiter = new AtomicReference<>();
    Future<CommitResult> same =
        threads.submit(
            () -> {
              waiter.set(Thread.currentThread());
              return store.commit(Mutation.records(List.of(RecordWrite.put(review("ws-a")))));
            });
    awaitParked(waiter);
    assertFalse(same.isDone(), "a commit of the held WorkSession went through");

    release.countDown();
    assertEquals(
        CommitResult.Outcome.COMMITTED, held.get(BOUND_SECONDS, TimeUnit.SECONDS).outcome());
    assertEquals(
        CommitResult.Outcome.COMMITTED, same.get(BOUND_SECONDS, TimeUnit.SECONDS).outcome());
    assertTrue(store.find(RecordKind.REVIEW, "ws-a", "review-ws-a").isPresent());
  }

  @Test
  void aCommitOrReadStuckBehindAHeldWorkSessionIsAStoreFaultInBoundedTimeNotAHang()
      throws Exception {
    InMemoryProtocolStore bounded = new InMemoryProtocolStore(Duration.ofMillis(200));
    bounded.commit(genesis("ws-a"));
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ChainCursor at = bounded.find("ws-a").orElseThrow().cursor();
    ObjectNode event = event("ws-a", at);
    Future<CommitResult> held =
        threads.submit(
            () ->
                bounded.commit(
                    Mutation.of(
                            new ChainWrite.Append("ws-a", at, event, snapshot("ws-a", event)),
                            List.of())
                        .within(
                            unit -> {
                              inside.countDown();
                              release.await();
                            })));
    assertTrue(inside.await(BOUND_SECONDS, TimeUnit.SECONDS), "the held commit never ran");

    Mutation behind = Mutation.records(List.of(RecordWrite.put(review("ws-a"))));
    assertThrows(StoreUnavailableException.class, () -> bounded.commit(behind));
    assertThrows(StoreUnavailableException.class, () -> bounded.events("ws-a"));

    // Control: once the held commit ends, the same commit and read go through.
    release.countDown();
    assertEquals(
        CommitResult.Outcome.COMMITTED, held.get(BOUND_SECONDS, TimeUnit.SECONDS).outcome());
    assertEquals(CommitResult.Outcome.COMMITTED, bounded.commit(behind).outcome());
    assertEquals(2, bounded.events("ws-a").size());
  }

  @Test
  void anIdTheOtherWorkSessionReservedIsRefusedAndAFailedStepGivesItsReservationBack() {
    store.commit(genesis("ws-a"));
    store.commit(genesis("ws-b"));
    StoredRecord inA = StoredRecord.inSession(RecordKind.REVIEW, "review-1", "ws-a", body("ws-a"));
    StoredRecord inB = StoredRecord.inSession(RecordKind.REVIEW, "review-1", "ws-b", body("ws-b"));
    Mutation failing =
        Mutation.records(List.of(RecordWrite.put(inA)))
            .within(
                unit -> {
                  throw new IllegalStateException("the outbox is down");
                });
    try {
      store.commit(failing);
      fail("the step's failure did not come out");
    } catch (IllegalStateException expected) {
      // nothing written, the id given back
    }
    assertTrue(store.findInAnyWorkSession(RecordKind.REVIEW, "review-1").isEmpty());
    assertEquals(
        CommitResult.Outcome.COMMITTED,
        store.commit(Mutation.records(List.of(RecordWrite.put(inB)))).outcome());
    assertEquals(
        CommitResult.Outcome.CONFLICT,
        store.commit(Mutation.records(List.of(RecordWrite.put(inA)))).outcome());
  }

  /** Waits until the thread is parked on a lock: the commit waits, it did not just start late. */
  private static void awaitParked(AtomicReference<Thread> waiter) {
    long deadline = System.nanoTime() + Duration.ofSeconds(BOUND_SECONDS).toNanos();
    while (waiter.get() == null
        || (waiter.get().getState() != Thread.State.WAITING
            && waiter.get().getState() != Thread.State.TIMED_WAITING)) {
      if (System.nanoTime() > deadline) {
        fail("the commit of the held WorkSession never waited");
      }
      Thread.onSpinWait();
    }
  }

  private Mutation genesis(String id) {
    ObjectNode first = event(id, ChainCursor.GENESIS);
    return Mutation.of(new ChainWrite.Genesis(snapshot(id, first), first), List.of());
  }

  private Mutation append(String id) {
    ChainCursor at = store.find(id).orElseThrow().cursor();
    ObjectNode event = event(id, at);
    return Mutation.of(new ChainWrite.Append(id, at, event, snapshot(id, event)), List.of());
  }

  private static StoredRecord review(String workSessionId) {
    return StoredRecord.inSession(
        RecordKind.REVIEW, "review-" + workSessionId, workSessionId, body(workSessionId));
  }

  private static ObjectNode body(String workSessionId) {
    ObjectNode body = JSON.objectNode();
    body.put("work_session_id", workSessionId);
    body.put("status", "recorded");
    return body;
  }

  private static ObjectNode event(String workSessionId, ChainCursor at) {
    long sequence = at.revision() + 1;
    ObjectNode draft = JSON.objectNode();
    draft.put("id", workSessionId + ".event." + sequence);
    draft.put("type", sequence == 1 ? "work_session.created" : "note.added");
    draft.put("work_session_id", workSessionId);
    draft.put("actor_id", "actor-1");
    draft.put("timestamp", "2026-12-01T18:00:00Z");
    draft.putObject("payload").put("text", "note " + sequence);
    return EventChain.next(at, draft);
  }

  private static StoredSession snapshot(String workSessionId, ObjectNode event) {
    ObjectNode snapshot = JSON.objectNode();
    snapshot.put("id", workSessionId);
    snapshot.put("status", "active");
    snapshot.put("created_by_actor_id", "actor-1");
    snapshot.put("revision", event.path("sequence").asLong());
    snapshot.put("last_event_hash", event.path("event_hash").asText());
    return new StoredSession(snapshot, false);
  }
}
