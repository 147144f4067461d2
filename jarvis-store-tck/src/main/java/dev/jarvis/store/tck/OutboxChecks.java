package dev.jarvis.store.tck;

import static dev.jarvis.store.tck.StoreFixtures.T0;
import static dev.jarvis.store.tck.StoreFixtures.append;
import static dev.jarvis.store.tck.StoreFixtures.claim;
import static dev.jarvis.store.tck.StoreFixtures.cursorAfter;
import static dev.jarvis.store.tck.StoreFixtures.genesis;
import static dev.jarvis.store.tck.StoreFixtures.scope;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.core.chain.ChainCursor;
import dev.jarvis.core.notification.RequestNotification;
import dev.jarvis.core.notification.RequestNotification.Kind;
import dev.jarvis.host.ChainWrite;
import dev.jarvis.host.CommitResult.Outcome;
import dev.jarvis.host.HostStores;
import dev.jarvis.host.Mutation;
import dev.jarvis.host.notify.DeadLetter;
import dev.jarvis.host.notify.NotificationDispatcher;
import dev.jarvis.host.notify.NotificationOutbox;
import dev.jarvis.host.notify.OutboxEntry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;

/** The notification outbox's part of the contract, for stores that keep one. */
final class OutboxChecks {

  private OutboxChecks() {}

  static RequestNotification notification(String workSessionId, long sequence) {
    return RequestNotification.of(
        Kind.REQUEST_CREATED,
        workSessionId,
        Optional.of("req-" + sequence),
        workSessionId + ".event." + sequence,
        sequence,
        T0);
  }

  private static NotificationOutbox outbox(HostStores stores) {
    return stores.notificationOutbox().orElseThrow();
  }

  /** Written with its unit, never with a unit that commits nothing. */
  static void aNotificationCommitsWithItsUnitOnly(HostStores stores) {
    ChainWrite.Genesis genesis = genesis("ws-1");
    RequestNotification first = notification("ws-1", 1);
    assertEquals(
        Outcome.COMMITTED,
        stores
            .commit(
                Mutation.of(genesis, List.of())
                    .claiming(claim(scope("k-1"), "first", T0))
                    .notifying(first))
            .outcome());
    ChainCursor cursor = cursorAfter(genesis.firstEvent());

    // A stale cursor: a conflict, nothing written.
    assertEquals(
        Outcome.CONFLICT,
        stores
            .commit(
                Mutation.of(append("ws-1", new ChainCursor(7, cursor.lastEventHash())), List.of())
                    .notifying(notification("ws-1", 8)))
            .outcome());
    // A taken key (a replay): nothing written.
    assertEquals(
        Outcome.KEY_TAKEN,
        stores
            .commit(
                Mutation.of(append("ws-1", cursor), List.of())
                    .claiming(claim(scope("k-1"), "second", T0.plusSeconds(1)))
                    .notifying(notification("ws-1", 2)))
            .outcome());
    // With a step (a commit hook) the unit is a transaction: the notification is in it too.
    RequestNotification second = notification("ws-1", 2);
    assertEquals(
        Outcome.COMMITTED,
        stores
            .commit(
                Mutation.of(append("ws-1", cursor), List.of())
                    .claiming(claim(scope("k-2"), "third", T0))
                    .within(unit -> {})
                    .notifying(second))
            .outcome());

    assertEquals(2, outbox(stores).pending());
    List<OutboxEntry> claimed =
        outbox(stores).claimDue(T0, Duration.ofMinutes(1), 10, "instance-a");
    assertEquals(List.of(new OutboxEntry(first, 0), new OutboxEntry(second, 0)), claimed);
  }

  /** A lease keeps a notification one owner's; a late owner's report changes nothing. */
  static void aLeaseKeepsANotificationOneInstancesUntilItRunsOut(
      HostStores stores, HostStores other) {
    stores.commit(Mutation.records(List.of()).notifying(notification("ws-1", 1)));
    Duration lease = Duration.ofMinutes(2);
    assertEquals(1, outbox(stores).claimDue(T0, lease, 10, "a").size());
    assertEquals(List.of(), outbox(other).claimDue(T0.plusSeconds(119), lease, 10, "b"));
    Instant later = T0.plus(lease);
    assertEquals(1, outbox(other).claimDue(later, lease, 10, "b").size());
    assertFalse(outbox(stores).delivered("ws-1/1", "a"));
    assertFalse(outbox(stores).retryAt("ws-1/1", "a", 1, later, "late"));
    assertEquals(1, outbox(stores).pending());
    assertTrue(outbox(other).retryAt("ws-1/1", "b", 1, later.plusSeconds(10), "down"));
    assertEquals(List.of(), outbox(stores).claimDue(later.plusSeconds(9), lease, 10, "a"));
    List<OutboxEntry> again = outbox(stores).claimDue(later.plusSeconds(10), lease, 10, "a");
    assertEquals(1, again.get(0).attempts());
    assertTrue(outbox(stores).delivered("ws-1/1", "a"));
    assertEquals(0, outbox(other).pending());
  }

  /** Dead letters are listed, earliest first, and never claimed again. */
  static void deadLettersAreListedAndNeverClaimedAgain(HostStores stores) {
    stores.commit(Mutation.records(List.of()).notifying(notification("ws-1", 1)));
    stores.commit(Mutation.records(List.of()).notifying(notification("ws-1", 2)));
    NotificationOutbox outbox = outbox(stores);
    outbox.claimDue(T0, Duration.ofMinutes(1), 10, "a");
    assertTrue(outbox.deadLetter("ws-1/2", "a", 8, T0.plusSeconds(1), "IOException: 500"));
    assertTrue(outbox.deadLetter("ws-1/1", "a", 3, T0.plusSeconds(2), "refused"));
    List<DeadLetter> dead = outbox.deadLetters(10);
    assertEquals(
        List.of(
            new DeadLetter(notification("ws-1", 2), 8, T0.plusSeconds(1), "IOException: 500"),
            new DeadLetter(notification("ws-1", 1), 3, T0.plusSeconds(2), "refused")),
        dead);
    assertEquals(
        List.of(), outbox.claimDue(T0.plus(Duration.ofDays(1)), Duration.ofMinutes(1), 10, "b"));
    assertEquals(0, outbox.pending());
  }

  /**
   * Dispatchers of two instances (each writer alternately on the first and the second handle), all
   * running at once: each notification is delivered exactly once.
   */
  static void dispatchersOfTwoInstancesDeliverEachNotificationOnce(
      HostStores stores, HostStores other, ExecutorService pool, int writers) throws Exception {
    int count = 40;
    for (int i = 1; i <= count; i++) {
      stores.commit(Mutation.records(List.of()).notifying(notification("ws-1", i)));
    }
    ConcurrentLinkedQueue<String> delivered = new ConcurrentLinkedQueue<>();
    Clock clock = Clock.fixed(T0, ZoneOffset.UTC);
    List<Callable<Integer>> tasks = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      HostStores handle = w % 2 == 0 ? stores : other;
      NotificationDispatcher dispatcher =
          NotificationDispatcher.builder(
                  handle.notificationOutbox().orElseThrow(), n -> delivered.add(n.id()))
              .clock(clock)
              .owner("instance-" + w)
              .policy(dev.jarvis.host.notify.DeliveryPolicy.DEFAULTS.withBatch(3))
              .build();
      tasks.add(
          () -> {
            int sent = 0;
            for (int round = 0; round < count; round++) {
              sent += dispatcher.dispatchNow().delivered();
            }
            return sent;
          });
    }
    int sent = Together.run(pool, tasks).stream().mapToInt(Integer::intValue).sum();
    Map<String, Integer> times = new HashMap<>();
    delivered.forEach(id -> times.merge(id, 1, Integer::sum));
    assertEquals(count, times.size(), "every notification was delivered");
    assertTrue(times.values().stream().allMatch(t -> t == 1), () -> "more than once: " + times);
    assertEquals(count, sent);
    assertEquals(0, outbox(stores).pending());
  }
}
