package dev.jarvis.host;

import static dev.jarvis.host.KitHost.HUMAN;
import static dev.jarvis.host.KitHost.WS;
import static dev.jarvis.host.KitHost.ok;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.core.notification.RequestNotification;
import dev.jarvis.core.notification.RequestNotification.Kind;
import dev.jarvis.host.notify.DeadLetter;
import dev.jarvis.host.notify.DeliveryPolicy;
import dev.jarvis.host.notify.NotificationDispatcher;
import dev.jarvis.host.notify.NotificationOutbox;
import dev.jarvis.host.notify.NotificationRefusedException;
import dev.jarvis.host.notify.OutboxEntry;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Issue 35 item 2 at the kit: one notification per accepted Request creation, expiry, Review and
 * Takeover, written in the unit of work of its event; none for a replay or a refusal; delivered at
 * least once with back-off, dead-lettered after the policy's attempts. Time is the kit's movable
 * clock and every run is {@code dispatchNow()}: nothing sleeps.
 */
class RequestNotificationsTest {

  private static KitHost notifying() {
    KitHost kit = new KitHost(HostAuth.anyCaller(), "", b -> b.requestNotifications(true));
    kit.createSession(WS);
    return kit;
  }

  private static NotificationOutbox outbox(KitHost kit) {
    return kit.host.config().stores().notificationOutbox().orElseThrow();
  }

  /** Delivers everything due to a list and answers it. */
  private static List<RequestNotification> drain(KitHost kit) {
    List<RequestNotification> got = new CopyOnWriteArrayList<>();
    NotificationDispatcher.builder(outbox(kit), got::add).clock(kit.clock).build().dispatchNow();
    return got;
  }

  @Test
  void eachAcceptedCreationReviewTakeoverAndExpiryGivesOneNotification() {
    KitHost kit = notifying();
    kit.approvedFetch(WS, "pd-1", "req-1", "rev-1"); // request.created, then review.recorded
    ok(
        kit.scoped(
            "recordTakeover", WS, HUMAN, kit.takeover(WS, "to-1", HUMAN, "scope:a", "locked", 1)));
    List<RequestNotification> first = drain(kit);

    assertEquals(
        List.of(Kind.REQUEST_CREATED, Kind.REVIEW, Kind.TAKEOVER),
        first.stream().map(RequestNotification::kind).toList());
    RequestNotification created = first.get(0);
    assertEquals(WS, created.workSessionId());
    assertEquals(Optional.of("req-1"), created.requestId());
    assertEquals(Optional.of("req-1"), first.get(1).requestId(), "the Review's Request");
    assertEquals(Optional.empty(), first.get(2).requestId(), "this Takeover names no Request");
    JsonEvent event = JsonEvent.at(kit, created.eventSequence());
    assertEquals("request.created", event.type());
    assertEquals(event.id(), created.eventId());
    assertEquals(WS + "/" + created.eventSequence(), created.id());
    assertEquals(0, outbox(kit).pending(), "delivered notifications leave the outbox");
  }

  @Test
  void anExpiryTheSweepWritesGivesOneNotification() {
    KitHost kit = notifying();
    kit.pendingFetch(WS, "pd-1", "req-1");
    drain(kit);
    kit.clock.advance(Duration.ofMinutes(30));

    assertEquals(1, kit.host.expireDueRequests());
    List<RequestNotification> got = drain(kit);
    assertEquals(1, got.size());
    assertEquals(Kind.REQUEST_EXPIRED, got.get(0).kind());
    assertEquals(Optional.of("req-1"), got.get(0).requestId());
    assertEquals(0, kit.host.expireDueRequests());
    assertEquals(List.of(), drain(kit), "nothing more once written");
  }

  @Test
  void anIdempotentReplayNotifiesNothing() {
    KitHost kit = notifying();
    kit.pendingFetch(WS, "pd-1", "req-1");
    KitHost.Sent create = kit.sent.get(kit.sent.size() - 1);
    assertEquals("createRequest", create.operationId());
    assertEquals(1, drain(kit).size());

    assertEquals(create.first(), create.again().get(), "the replay answers the first response");
    assertEquals(0, outbox(kit).pending());
    assertEquals(List.of(), drain(kit));
  }

  @Test
  void aRefusedCallNotifiesNothing() {
    KitHost kit = notifying();
    kit.pendingFetch(WS, "pd-1", "req-1");
    drain(kit);
    // The same Request id with another body: refused, nothing written.
    KitHost.Answer refused =
        kit.scoped(
            "createRequest",
            WS,
            KitHost.AGENT,
            kit.request(WS, "req-1", "pd-1", "fetch_external_source", Duration.ofMinutes(5)));
    assertTrue(refused.status() >= 400, refused.toString());
    // A Review by an outsider: refused.
    KitHost.Answer outsider =
        kit.scoped(
            "recordReview",
            WS,
            KitHost.OUTSIDER,
            kit.review(
                WS, "rev-x", KitHost.OUTSIDER, KitHost.OTHER_WORKER, "request:req-1", "approve"));
    assertTrue(outsider.status() >= 400, outsider.toString());

    assertEquals(0, outbox(kit).pending());
  }

  @Test
  void aHostThatDoesNotNotifyWritesNoNotification() {
    KitHost kit = KitHost.withSession();
    kit.pendingFetch(WS, "pd-1", "req-1");
    assertEquals(0, outbox(kit).pending());
  }

  @Test
  void notificationsNeedAStoreWithAnOutbox() {
    HostStores without =
        new HostStores() {
          final HostStores inner = HostStores.inMemory();

          @Override
          public WorkSessionStore sessions() {
            return inner.sessions();
          }

          @Override
          public RecordStore records() {
            return inner.records();
          }

          @Override
          public IdempotencyStore idempotency() {
            return inner.idempotency();
          }

          @Override
          public CommitResult commit(Mutation mutation) {
            return inner.commit(mutation);
          }
        };
    HostConfig.Builder builder =
        HostConfig.builder(HostAuth.anyCaller()).stores(without).requestNotifications(true);
    assertThrows(IllegalArgumentException.class, builder::build);
  }

  @Test
  void aReceiverThatFailsTwiceGetsTheNotificationOnTheThirdAttemptAfterBackingOff() {
    KitHost kit = notifying();
    kit.pendingFetch(WS, "pd-1", "req-1");
    AtomicInteger calls = new AtomicInteger();
    List<RequestNotification> got = new CopyOnWriteArrayList<>();
    NotificationDispatcher dispatcher =
        NotificationDispatcher.builder(
                outbox(kit),
                n -> {
                  if (calls.incrementAndGet() <= 2) {
                    throw new IOException("receiver down");
                  }
                  got.add(n);
                })
            .clock(kit.clock)
            .jitter(() -> 0) // back-off exactly half its base: 5 s, then 10 s
            .build();

    assertEquals(new NotificationDispatcher.Dispatched(0, 1, 0), dispatcher.dispatchNow());
    assertEquals(
        new NotificationDispatcher.Dispatched(0, 0, 0),
        dispatcher.dispatchNow(),
        "not due before its back-off");
    kit.clock.advance(Duration.ofSeconds(5));
    assertEquals(new NotificationDispatcher.Dispatched(0, 1, 0), dispatcher.dispatchNow());
    kit.clock.advance(Duration.ofSeconds(9));
    assertEquals(new NotificationDispatcher.Dispatched(0, 0, 0), dispatcher.dispatchNow());
    kit.clock.advance(Duration.ofSeconds(1));
    assertEquals(new NotificationDispatcher.Dispatched(1, 0, 0), dispatcher.dispatchNow());

    assertEquals(3, calls.get());
    assertEquals(1, got.size());
    assertEquals(0, outbox(kit).pending());
  }

  @Test
  void aNotificationNeverDeliveredBecomesADeadLetterAnOperatorCanList() {
    KitHost kit = notifying();
    kit.pendingFetch(WS, "pd-1", "req-1");
    NotificationDispatcher dispatcher =
        NotificationDispatcher.builder(
                outbox(kit),
                n -> {
                  throw new IOException("the receiver answered 500");
                })
            .clock(kit.clock)
            .jitter(() -> 0.99)
            .policy(DeliveryPolicy.DEFAULTS.withMaxAttempts(3))
            .build();
    for (int i = 0; i < 3; i++) {
      dispatcher.dispatchNow();
      kit.clock.advance(Duration.ofMinutes(1));
    }

    List<DeadLetter> dead = outbox(kit).deadLetters(10);
    assertEquals(1, dead.size());
    assertEquals(3, dead.get(0).attempts());
    assertEquals("IOException: the receiver answered 500", dead.get(0).lastError());
    assertEquals(Kind.REQUEST_CREATED, dead.get(0).notification().kind());
    assertEquals(0, outbox(kit).pending(), "a dead letter is never claimed again");
    kit.clock.advance(Duration.ofHours(1));
    assertEquals(new NotificationDispatcher.Dispatched(0, 0, 0), dispatcher.dispatchNow());
  }

  @Test
  void aNotificationOlderThanTheMaximumAgeIsDeadLetteredAtItsNextFailure() {
    KitHost kit = notifying();
    kit.pendingFetch(WS, "pd-1", "req-1");
    kit.clock.advance(Duration.ofHours(25));
    NotificationDispatcher dispatcher =
        NotificationDispatcher.builder(
                outbox(kit),
                n -> {
                  throw new IOException("down");
                })
            .clock(kit.clock)
            .build();
    assertEquals(new NotificationDispatcher.Dispatched(0, 0, 1), dispatcher.dispatchNow());
  }

  @Test
  void aRefusedTargetIsDeadLetteredAtOnce() {
    KitHost kit = notifying();
    kit.pendingFetch(WS, "pd-1", "req-1");
    NotificationDispatcher dispatcher =
        NotificationDispatcher.builder(
                outbox(kit),
                n -> {
                  throw new NotificationRefusedException("loopback refused");
                })
            .clock(kit.clock)
            .build();
    assertEquals(new NotificationDispatcher.Dispatched(0, 0, 1), dispatcher.dispatchNow());
    assertEquals("loopback refused", outbox(kit).deadLetters(1).get(0).lastError());
  }

  @Test
  void aLeasedNotificationIsOneDispatchersUntilItsLeaseRunsOut() {
    KitHost kit = notifying();
    kit.pendingFetch(WS, "pd-1", "req-1");
    NotificationOutbox outbox = outbox(kit);
    Duration lease = Duration.ofMinutes(2);

    List<OutboxEntry> a = outbox.claimDue(kit.clock.instant(), lease, 10, "instance-a");
    assertEquals(1, a.size());
    assertEquals(List.of(), outbox.claimDue(kit.clock.instant(), lease, 10, "instance-b"));
    kit.clock.advance(lease);
    List<OutboxEntry> b = outbox.claimDue(kit.clock.instant(), lease, 10, "instance-b");
    assertEquals(1, b.size(), "taken over once the lease ran out");

    String id = a.get(0).notification().id();
    assertFalse(outbox.delivered(id, "instance-a"), "the late owner's report changes nothing");
    assertEquals(1, outbox.pending());
    assertTrue(outbox.delivered(id, "instance-b"));
    assertEquals(0, outbox.pending());
  }

  @Test
  void aClosedDispatcherSendsNothing() {
    KitHost kit = notifying();
    kit.pendingFetch(WS, "pd-1", "req-1");
    List<RequestNotification> got = new CopyOnWriteArrayList<>();
    NotificationDispatcher dispatcher =
        NotificationDispatcher.builder(outbox(kit), got::add).clock(kit.clock).build();
    dispatcher.close();
    assertEquals(new NotificationDispatcher.Dispatched(0, 0, 0), dispatcher.dispatchNow());
    assertEquals(List.of(), got);
    assertEquals(1, outbox(kit).pending());
  }

  /** The stored event at a sequence. */
  private record JsonEvent(String type, String id) {
    static JsonEvent at(KitHost kit, long sequence) {
      var event =
          kit.host.config().stores().sessions().events(WS).stream()
              .filter(e -> e.path("sequence").asLong() == sequence)
              .findFirst()
              .orElseThrow();
      return new JsonEvent(event.path("type").asText(), event.path("id").asText());
    }
  }
}
