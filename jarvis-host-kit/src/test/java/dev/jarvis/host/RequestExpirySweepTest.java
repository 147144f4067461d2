package dev.jarvis.host;

import static dev.jarvis.host.KitHost.WS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Requests expire on time: the expiry sweep writes {@code request.expired} for a Request past its
 * {@code expires_at} with nobody touching its WorkSession, once, however many host instances sweep
 * one store. Time is the kit host's movable clock; the schedule is driven by hand.
 */
class RequestExpirySweepTest {

  private static long expiries(KitHost kit, String ws) {
    return kit.host.config().stores().sessions().events(ws).stream()
        .filter(e -> e.path("type").asText().equals("request.expired"))
        .count();
  }

  private static String status(KitHost kit, String requestId) {
    return kit.record(RecordKind.REQUEST, requestId).orElseThrow().path("status").asText();
  }

  @Test
  void aRequestPastItsExpiryIsWrittenExpiredWithoutAnyoneTouchingItsWorkSession() {
    List<HostWrittenEvent> heard = new CopyOnWriteArrayList<>();
    KitHost kit =
        new KitHost(
            HostAuth.anyCaller(),
            "",
            b ->
                b.listener(
                    new ProtocolListener() {
                      @Override
                      public void hostWrote(HostWrittenEvent event) {
                        heard.add(event);
                      }
                    }));
    kit.createSession(WS);
    kit.pendingFetch(WS, "pd-1", "req-1");
    long before = kit.cursor(WS).revision();
    kit.clock.advance(Duration.ofMinutes(30)); // exactly its expires_at

    assertEquals(1, kit.host.expireDueRequests());
    assertEquals("expired", status(kit, "req-1"));
    assertEquals(before + 1, kit.cursor(WS).revision());
    JsonNode event = kit.host.config().stores().sessions().events(WS).get((int) before);
    assertEquals("request.expired", event.path("type").asText());
    assertEquals("req-1", event.path("payload").path("object_id").asText());
    assertEquals(1, heard.size(), "the listener hears of the host's own event");
    assertEquals(0, kit.host.expireDueRequests(), "nothing is due any more");
  }

  @Test
  void aRequestNotYetDueIsLeftOpen() {
    KitHost kit = KitHost.withSession();
    kit.pendingFetch(WS, "pd-1", "req-1");
    kit.clock.advance(Duration.ofMinutes(29));

    assertEquals(0, kit.host.expireDueRequests());
    assertEquals("pending", status(kit, "req-1"));
  }

  @Test
  void everyDueRequestOfEveryWorkSessionIsExpiredInOneRun() {
    KitHost kit = KitHost.withSession();
    kit.createSession(KitHost.OTHER_WS);
    kit.pendingFetch(WS, "pd-1", "req-1");
    kit.pendingFetch(KitHost.OTHER_WS, "pd-2", "req-2");
    kit.clock.advance(Duration.ofHours(1));

    assertEquals(2, kit.host.expireDueRequests());
    assertEquals("expired", status(kit, "req-1"));
    assertEquals("expired", status(kit, "req-2"));
  }

  @Test
  void hostInstancesSweepingOneStoreTogetherWriteEachExpiryOnce() throws Exception {
    KitHost kit = KitHost.withSession();
    ProtocolHost second = new ProtocolHost(kit.host.config()); // its own locks, the same store
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int round = 1; round <= 10; round++) {
        kit.pendingFetch(WS, "pd-" + round, "req-" + round);
        kit.clock.advance(Duration.ofHours(1));
        CyclicBarrier start = new CyclicBarrier(2);
        List<Future<Integer>> sweeps = new ArrayList<>();
        for (ProtocolHost instance : List.of(kit.host, second)) {
          sweeps.add(
              pool.submit(
                  () -> {
                    start.await(20, TimeUnit.SECONDS);
                    return instance.expireDueRequests();
                  }));
        }
        int written = 0;
        for (Future<Integer> sweep : sweeps) {
          written += sweep.get(20, TimeUnit.SECONDS);
        }
        assertEquals(1, written, "round " + round + ": one instance wrote it");
        assertEquals(round, expiries(kit, WS), "round " + round + ": one event per Request");
        assertEquals("expired", status(kit, "req-" + round));
      }
    } finally {
      pool.shutdownNow();
    }
  }

  /** A scheduler whose runs the test starts by hand; what it was asked to schedule is kept. */
  private static final class HandScheduler extends ScheduledThreadPoolExecutor {
    Runnable task;
    long delay;
    long period;
    ScheduledFuture<?> handle;

    HandScheduler() {
      super(1);
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(
        Runnable command, long initialDelay, long delay, TimeUnit unit) {
      this.task = command;
      this.delay = unit.toMillis(initialDelay);
      this.period = unit.toMillis(delay);
      // A handle the sweep can cancel; it never runs by itself.
      this.handle = super.schedule(() -> {}, 1, TimeUnit.DAYS);
      return handle;
    }
  }

  @Test
  void aSweepRunsOnTheSchedulerItIsGivenUntilClosed() {
    KitHost kit = KitHost.withSession();
    kit.pendingFetch(WS, "pd-1", "req-1");
    HandScheduler scheduler = new HandScheduler();
    try {
      RequestExpirySweep.Running running =
          new RequestExpirySweep(kit.host).every(Duration.ofMillis(500), scheduler);
      assertEquals(500, scheduler.delay);
      assertEquals(500, scheduler.period);

      scheduler.task.run(); // a run before the Request is due
      assertEquals("pending", status(kit, "req-1"));
      kit.clock.advance(Duration.ofMinutes(31));
      scheduler.task.run();
      assertEquals("expired", status(kit, "req-1"));

      running.close();
      assertTrue(scheduler.handle.isCancelled());
      assertTrue(!scheduler.isShutdown(), "closing cancels the runs, not the caller's scheduler");
    } finally {
      scheduler.shutdownNow();
    }
  }

  @Test
  void aSweepIntervalMustBePositive() {
    RequestExpirySweep sweep = new RequestExpirySweep(KitHost.withSession().host);
    assertThrows(IllegalArgumentException.class, () -> sweep.every(Duration.ZERO));
  }
}
