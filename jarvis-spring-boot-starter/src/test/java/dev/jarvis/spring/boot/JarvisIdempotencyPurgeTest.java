package dev.jarvis.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.jarvis.core.headers.RequestTimestamp;
import dev.jarvis.host.HostAuth;
import dev.jarvis.host.HostConfig;
import dev.jarvis.host.IdempotencyPurge;
import dev.jarvis.host.ProtocolHost;
import dev.jarvis.samples.SampleRecords;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A Boot service's host keeps its idempotency records for the retention and no longer: the starter
 * deletes them on a schedule from the context's start to its stop, as the reference host does.
 */
class JarvisIdempotencyPurgeTest {

  /** A schedule the test runs by hand: what was asked, and whether it was stopped. */
  private static final class HandSchedule implements JarvisIdempotencyPurge.Schedule {
    final List<Duration> intervals = new ArrayList<>();
    final List<Runnable> tasks = new ArrayList<>();
    boolean closed;

    @Override
    public IdempotencyPurge.Running start(IdempotencyPurge purge, Duration interval) {
      intervals.add(interval);
      tasks.add(purge::runOnce);
      return () -> closed = true;
    }
  }

  private Instant now = Instant.parse("2026-06-12T18:00:00Z");
  private final Clock clock =
      new Clock() {
        @Override
        public java.time.ZoneId getZone() {
          return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
          return this;
        }

        @Override
        public Instant instant() {
          return now;
        }
      };
  private final ProtocolHost host =
      new ProtocolHost(HostConfig.builder(HostAuth.anyCaller()).clock(clock).build());
  private final HandSchedule schedule = new HandSchedule();
  private final JarvisIdempotencyPurge purge =
      new JarvisIdempotencyPurge(host, Duration.ofMinutes(5), schedule);

  @Test
  void itRunsAtTheConfiguredIntervalFromStartUntilStop() {
    assertFalse(purge.isRunning());
    purge.start();
    purge.start();
    assertTrue(purge.isRunning());
    assertEquals(List.of(Duration.ofMinutes(5)), schedule.intervals);

    purge.stop();
    assertTrue(schedule.closed);
    assertFalse(purge.isRunning());
  }

  @Test
  void eachRunDeletesTheRecordsPastTheirRetentionByTheHostClock() {
    registerWorker("worker-1");
    purge.start();
    Runnable run = schedule.tasks.get(0);

    now = now.plus(Duration.ofHours(23));
    assertEquals(0, purge.purgeNow(), "a record 23 h old is within the 24 h retention");

    now = now.plus(Duration.ofHours(2));
    run.run();
    assertEquals(0, purge.purgeNow(), "the scheduled run deleted the 25 h old record");
  }

  @Test
  void aNonPositiveIntervalIsRefusedAtStartUp() {
    assertThrows(
        IllegalArgumentException.class,
        () -> new JarvisIdempotencyPurge(host, Duration.ZERO, schedule));
  }

  private void registerWorker(String id) {
    Map<String, String> headers =
        Map.of(
            "jarvis-protocol-version",
            "v0.1",
            "jarvis-actor-id",
            HostConfig.DEFAULT_ADMIN_ACTOR_ID,
            "jarvis-idempotency-key",
            "key-" + id,
            "jarvis-request-timestamp",
            RequestTimestamp.format(now),
            "content-type",
            "application/json");
    byte[] body = SampleRecords.worker(id, "human").toString().getBytes(StandardCharsets.UTF_8);
    int status =
        host.answer(
                "PUT",
                "/workers/" + id,
                "",
                name -> Optional.ofNullable(headers.get(name.toLowerCase(java.util.Locale.ROOT))),
                body)
            .status();
    assertEquals(200, status);
  }
}
